import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyValue, Logger } from '@gpt/kit';
import type { Update } from 'grammy/types';
import type { Kysely } from 'kysely';
import type { BotDatabase } from '../data/schema';
import { webhookUpdatesRepository } from '../data/webhook-updates.repository';

/** A chat's lock lives this long unless its holder refreshes it (a holder that died frees the chat by then). */
const LOCK_TTL_SEC = 30;
/** How often a replica whose update waits behind another replica's looks again. */
const WAIT_POLL_MS = 100;

/** The chat an update belongs to (its updates are handled in order); the sender when it names no chat. */
export function chatOf(update: Update): number {
  for (const [key, value] of Object.entries(update)) {
    if (key === 'update_id' || typeof value !== 'object' || value === null) continue;
    const part = value as { chat?: { id: number }; message?: { chat?: { id: number } }; from?: { id: number } };
    const id = part.chat?.id ?? part.message?.chat?.id ?? part.from?.id;
    if (id !== undefined) return id;
  }
  return 0;
}

/**
 * Webhook updates for any number of bot replicas: each update is kept in the database before
 * Telegram is answered, so a redelivered one (same update_id) is handled once; the updates of one
 * chat are then handled in update order by whichever replica holds that chat's lock in Redis,
 * while the others wait for theirs to be done. Telegram gets its 200 at once, never after the answer.
 */
export function webhookQueue(options: {
  db: Kysely<BotDatabase>;
  kv: KeyValue;
  logger: Logger;
  owner: string;
  handle(update: Update): Promise<void>;
}) {
  const { kv, logger, owner } = options;
  const updates = webhookUpdatesRepository(options.db);
  const working = new Set<Promise<void>>();
  const lockKey = (chatId: number) => `bot:chat-lock:${chatId}`;

  /** With the chat's lock held: its pending updates, oldest first, until none is left. */
  async function drain(chatId: number) {
    for (let update = await updates.nextPending(chatId); update; update = await updates.nextPending(chatId)) {
      try {
        await options.handle(update);
      } catch (err) {
        logger.error({ err, update: update.update_id }, 'handling a webhook update failed');
      }
      await updates.markHandled(update.update_id);
    }
  }

  /** Until this update is handled: drain its chat under the lock, or wait while another replica does. */
  async function process(update: Update, chatId: number) {
    for (;;) {
      if (await kv.acquire(lockKey(chatId), owner, LOCK_TTL_SEC)) {
        const refresh = setInterval(
          () => void kv.set(lockKey(chatId), owner, LOCK_TTL_SEC).catch(() => undefined),
          (LOCK_TTL_SEC * 1000) / 3,
        );
        try {
          await drain(chatId);
        } finally {
          clearInterval(refresh);
          await kv.release(lockKey(chatId), owner);
        }
        // An update may have come in between the last look and the release: its replica may have given up the lock to us.
        if (!(await updates.nextPending(chatId))) return;
      } else {
        if (await updates.isHandled(update.update_id)) return;
        await sleep(WAIT_POLL_MS);
      }
    }
  }

  return {
    /** Keeps the update (false for a redelivery) and handles it in the background. */
    async accept(update: Update): Promise<boolean> {
      const chatId = chatOf(update);
      if (!(await updates.receive(update, chatId))) return false;
      const work = process(update, chatId)
        .catch((err: unknown) => logger.error({ err, update: update.update_id }, 'webhook update left unhandled'))
        .finally(() => working.delete(work));
      working.add(work);
      return true;
    },
    /** Updates being handled by this replica. */
    size: () => working.size,
    /** Forgets handled updates older than Telegram ever redelivers. */
    forgetOld: () => updates.forgetOld(),
  };
}
