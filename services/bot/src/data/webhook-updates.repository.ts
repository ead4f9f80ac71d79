import { sql, type Kysely } from 'kysely';
import type { Update } from 'grammy/types';
import type { BotDatabase } from './schema';

/** Handled updates are kept this long, long past any redelivery by Telegram. */
const KEEP_HANDLED = '1 day';

export function webhookUpdatesRepository(db: Kysely<BotDatabase>) {
  return {
    /** Keeps a received update; false when it was received before (a redelivery). */
    async receive(update: Update, chatId: number): Promise<boolean> {
      const row = await db
        .insertInto('webhook_updates')
        .values({ update_id: update.update_id, chat_id: chatId, payload: JSON.stringify(update) })
        .onConflict((oc) => oc.column('update_id').doNothing())
        .returning('update_id')
        .executeTakeFirst();
      return row !== undefined;
    },
    /** The chat's oldest update not handled yet. */
    async nextPending(chatId: number): Promise<Update | undefined> {
      const row = await db
        .selectFrom('webhook_updates')
        .select('payload')
        .where('chat_id', '=', String(chatId))
        .where('handled_at', 'is', null)
        .orderBy('update_id')
        .limit(1)
        .executeTakeFirst();
      return row?.payload as Update | undefined;
    },
    async isHandled(updateId: number): Promise<boolean> {
      const row = await db
        .selectFrom('webhook_updates')
        .select('handled_at')
        .where('update_id', '=', String(updateId))
        .executeTakeFirst();
      return row?.handled_at != null;
    },
    async markHandled(updateId: number): Promise<void> {
      await db
        .updateTable('webhook_updates')
        .set({ handled_at: new Date() })
        .where('update_id', '=', String(updateId))
        .execute();
    },
    async forgetOld(): Promise<void> {
      await db
        .deleteFrom('webhook_updates')
        .where('handled_at', '<', sql<Date>`now() - ${KEEP_HANDLED}::interval`)
        .execute();
    },
  };
}
