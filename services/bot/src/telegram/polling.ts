import { createHash } from 'node:crypto';
import { run, type RunnerHandle } from '@grammyjs/runner';
import type { Bot } from 'grammy';
import type { BotDeps } from '../deps';
import type { BotContext, TelegramSignal, UpdateType } from './context';

/** One long-polling process per bot token: it holds this lock in Redis and refreshes it. */
const POLLER_LOCK_TTL_SEC = 30;

export interface LongPolling {
  /** Starts polling when no other live process polls with this token; false when one does (try again later). `signal` ends its call to Telegram. */
  start(signal?: TelegramSignal): Promise<boolean>;
  /** Stops fetching at once; what was fetched is still being handled (`size`). */
  stop(): Promise<void>;
  /** Gives the token's polling up to the next process, once what was fetched is handled. */
  release(): Promise<void>;
  /** Updates fetched and not yet handled. */
  size(): number;
}

/**
 * Long polling through grammY's runner (updates of different chats at once), by one process per
 * token: the lock names its holder, whose heartbeat says it is alive; a second process waits and
 * takes over when the holder stops or dies.
 */
export function longPolling(
  deps: Pick<BotDeps, 'kv' | 'generations'>,
  bot: Bot<BotContext>,
  token: string,
  allowedUpdates: readonly UpdateType[],
): LongPolling {
  const owner = deps.generations.owner;
  const lockKey = `bot:poller:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
  let heartbeat: NodeJS.Timeout | undefined;
  let runner: RunnerHandle | undefined;

  async function takeLock(): Promise<boolean> {
    if (!(await deps.kv.acquire(lockKey, owner, POLLER_LOCK_TTL_SEC))) {
      const holder = await deps.kv.get(lockKey);
      if (holder && holder !== owner && (await deps.generations.isAlive(holder))) return false;
      await deps.kv.set(lockKey, owner, POLLER_LOCK_TTL_SEC);
    }
    heartbeat = setInterval(
      () => void deps.kv.set(lockKey, owner, POLLER_LOCK_TTL_SEC).catch(() => undefined),
      (POLLER_LOCK_TTL_SEC * 1000) / 3,
    );
    return true;
  }

  return {
    async start(signal) {
      if (!(await takeLock())) return false;
      await bot.api.deleteWebhook(undefined, signal);
      runner = run(bot, { runner: { fetch: { allowed_updates: allowedUpdates } } });
      return true;
    },
    async stop() {
      if (runner?.isRunning()) await runner.stop();
    },
    async release() {
      clearInterval(heartbeat);
      await deps.kv.release(lockKey, owner).catch(() => undefined);
    },
    size: () => runner?.size() ?? 0,
  };
}
