import type { Kysely } from 'kysely';
import type { BotDatabase } from './schema';

/** An answer in progress as the database keeps it. */
export interface Generation {
  id: string;
  owner: string;
  /** The Telegram user and chat; null for an answer asked on the web. */
  telegramId: number | null;
  chatId: number | null;
  /** The conversation message the answer streams into. */
  answerId: string;
  messageId: number | null;
  holdId: string;
}

export function generationsRepository(db: Kysely<BotDatabase>) {
  return {
    async begin(generation: Omit<Generation, 'messageId'>): Promise<void> {
      await db
        .insertInto('generations')
        .values({
          id: generation.id,
          owner: generation.owner,
          telegram_id: generation.telegramId,
          chat_id: generation.chatId,
          answer_id: generation.answerId,
          message_id: null,
          hold_id: generation.holdId,
        })
        .execute();
    },
    async placeholderSent(id: string, messageId: number): Promise<void> {
      await db.updateTable('generations').set({ message_id: messageId }).where('id', '=', id).execute();
    },
    async end(id: string): Promise<void> {
      await db.deleteFrom('generations').where('id', '=', id).execute();
    },
    /** Every owner with answers in progress. */
    async owners(): Promise<string[]> {
      const rows = await db.selectFrom('generations').select('owner').distinct().execute();
      return rows.map((row) => row.owner);
    },
    async ofOwner(owner: string): Promise<Generation[]> {
      const rows = await db.selectFrom('generations').selectAll().where('owner', '=', owner).execute();
      return rows.map((row) => ({
        id: row.id,
        owner: row.owner,
        telegramId: row.telegram_id === null ? null : Number(row.telegram_id),
        chatId: row.chat_id === null ? null : Number(row.chat_id),
        answerId: row.answer_id ?? '',
        messageId: row.message_id,
        holdId: row.hold_id,
      }));
    },
  };
}
