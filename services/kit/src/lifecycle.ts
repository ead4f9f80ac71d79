import { ConfigError } from './config';
import type { Logger } from './logger';

export type ShutdownStep = [name: string, close: () => Promise<void>];

const FORCE_EXIT_MS = 15_000;

/**
 * Runs the steps in order on SIGTERM/SIGINT (stop accepting → finish in-flight → consumers →
 * channels → Redis → pools), then exits; a step that fails is logged and the rest still run.
 */
export function shutdownOnSignals(logger: Logger, steps: () => ShutdownStep[], forceExitMs = FORCE_EXIT_MS): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, forceExitMs).unref();
    await runSteps(logger, steps());
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

export async function runSteps(logger: Logger, steps: ShutdownStep[]): Promise<void> {
  for (const [name, close] of steps) {
    try {
      await close();
    } catch (err) {
      logger.error({ err, step: name }, 'shutdown step failed');
    }
  }
}

/**
 * A process entry point: a failure at start-up prints its reason and exits 1; afterwards signals shut it
 * down, forcibly after `forceExitMs` (a process with long in-flight work, the bot, gives its own).
 */
export async function runMain(
  start: () => Promise<{ logger: Logger; close(): Promise<void>; forceExitMs?: number }>,
): Promise<void> {
  try {
    const running = await start();
    shutdownOnSignals(running.logger, () => [['service', running.close]], running.forceExitMs);
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
}
