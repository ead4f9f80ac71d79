import { randomUUID } from 'node:crypto';
import type { KeyValue, Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { ServiceCallError, type ServiceClients } from '../clients/services';
import { conversationsRepository } from '../data/conversations.repository';
import { generationsRepository, type Generation } from '../data/generations.repository';
import type { BotDatabase } from '../data/schema';

/** A process proves it is alive by refreshing this key; an owner without it has died. */
const HEARTBEAT_TTL_SEC = 10;
const HEARTBEAT_EVERY_MS = 3_000;
/** How often answers of dead processes are looked for (besides at start). */
const SWEEP_EVERY_MS = 5_000;

const heartbeatKey = (owner: string) => `bot:generator:${owner}`;

/** One answer being generated: the signal aborts it when the process stops before it ends, or the user stops it. */
export interface GenerationHandle {
  readonly signal: AbortSignal;
  /** «Остановить»: aborts the model call; what was said is kept and charged. */
  stop(): void;
  /** The abort was the user's «Остановить», not the process stopping. */
  readonly stopped: boolean;
  placeholderSent(messageId: number): Promise<void>;
  /** The answer ended (answered or failed): nothing is left to resolve. */
  end(): Promise<void>;
  /** The answer will not end (the process is stopping): release the hold and tell the user. */
  interrupt(): Promise<void>;
}

export interface GenerationsDeps {
  db: Kysely<BotDatabase>;
  kv: KeyValue;
  services: Pick<ServiceClients, 'releaseHold'>;
  logger: Logger;
  /** Tells the user their answer was interrupted: edits the placeholder, or writes when there was none. */
  tellInterrupted(chatId: number, messageId: number | null): Promise<void>;
}

/**
 * Answers in progress, kept in the database before the model is called, so that an answer whose
 * process died (a crash, a killed container) is resolved by the next process to look: its hold is
 * released at once, the user reads that the answer was interrupted and can ask again, nothing is
 * charged. At a graceful stop the answers still running after the grace time are resolved the same way.
 * How it behaves for a user: docs/bot.md.
 */
export function generations(deps: GenerationsDeps) {
  const owner = randomUUID();
  const repository = generationsRepository(deps.db);
  const conversations = conversationsRepository(deps.db);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let timers: NodeJS.Timeout[] = [];

  async function resolveInterrupted(
    generation: Pick<Generation, 'id' | 'holdId' | 'chatId' | 'messageId' | 'answerId'>,
  ) {
    await deps.services.releaseHold(generation.holdId).catch((err: unknown) => {
      // A hold that is gone (settled or expired) has nothing left to release.
      if (!(err instanceof ServiceCallError && err.status === 404)) throw err;
    });
    if (generation.chatId !== null)
      await deps
        .tellInterrupted(generation.chatId, generation.messageId)
        .catch((err: unknown) => deps.logger.warn({ err }, 'could not tell the user their answer was interrupted'));
    // The text saved so far stays, marked as failed.
    await conversations.markInterrupted(generation.answerId);
    await repository.end(generation.id);
  }

  /** Resolves the answers of every process whose heartbeat is gone; answers how many. */
  async function recoverDead(): Promise<number> {
    let resolved = 0;
    for (const other of await repository.owners()) {
      if (other === owner || (await deps.kv.get(heartbeatKey(other)))) continue;
      // One replica resolves a dead process's answers; the others skip it.
      if (!(await deps.kv.acquire(`bot:recovering:${other}`, owner, 60))) continue;
      for (const generation of await repository.ofOwner(other)) {
        await resolveInterrupted(generation);
        resolved += 1;
      }
      deps.logger.info({ owner: other, resolved }, 'answers of a stopped process resolved as interrupted');
    }
    return resolved;
  }

  const heartbeat = () => deps.kv.set(heartbeatKey(owner), '1', HEARTBEAT_TTL_SEC);
  const sweep = () =>
    recoverDead().catch((err: unknown) => deps.logger.warn({ err }, 'looking for interrupted answers failed'));

  return {
    owner,
    active: () => running.size,
    /** Whether the process named `other` still proves it is alive. */
    isAlive: async (other: string) => other === owner || (await deps.kv.get(heartbeatKey(other))) !== null,

    async begin(input: {
      telegramId: number | null;
      chatId: number | null;
      holdId: string;
      answerId: string;
    }): Promise<GenerationHandle> {
      const id = randomUUID();
      await repository.begin({ id, owner, ...input });
      const controller = new AbortController();
      let finish = () => undefined as void;
      running.set(id, { controller, done: new Promise<void>((resolve) => (finish = resolve)) });
      let messageId: number | null = null;
      let stopped = false;
      const close = async (resolve: () => Promise<void>) => {
        try {
          await resolve();
        } finally {
          running.delete(id);
          finish();
        }
      };
      return {
        signal: controller.signal,
        stop() {
          stopped = true;
          controller.abort(new Error('stopped by the user'));
        },
        get stopped() {
          return stopped;
        },
        async placeholderSent(sent) {
          messageId = sent;
          await repository.placeholderSent(id, sent);
        },
        end: () => close(() => repository.end(id)),
        interrupt: () =>
          close(() =>
            resolveInterrupted({
              id,
              holdId: input.holdId,
              chatId: input.chatId,
              messageId,
              answerId: input.answerId,
            }),
          ),
      };
    },

    /** Heartbeat and sweeps for dead processes' answers, the first one now; returns the stop. */
    async start(): Promise<() => void> {
      await heartbeat();
      timers = [
        setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_EVERY_MS),
        setInterval(() => void sweep(), SWEEP_EVERY_MS),
      ];
      for (const timer of timers) timer.unref();
      await sweep();
      return () => timers.forEach(clearInterval);
    },

    /**
     * A graceful stop: answers in progress get `graceMs` to finish; those still running then are
     * aborted, and each resolves itself as interrupted.
     */
    async drain(graceMs: number): Promise<void> {
      const all = () => Promise.all([...running.values()].map((entry) => entry.done));
      const timedOut = await Promise.race([
        all().then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
      ]);
      if (timedOut) {
        deps.logger.warn({ answers: running.size }, 'answers still running at the end of the grace time: interrupted');
        for (const entry of running.values()) entry.controller.abort(new Error('the bot is stopping'));
        await all();
      }
      timers.forEach(clearInterval);
      await deps.kv.del(heartbeatKey(owner));
    },
  };
}

export type Generations = ReturnType<typeof generations>;
