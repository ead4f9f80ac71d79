import type { Kysely } from 'kysely';
import type { BotDatabase } from './schema';

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export function turnsRepository(db: Kysely<BotDatabase>) {
  return {
    /** The newest turns of a conversation, oldest first, at most `limit`. */
    async recent(telegramId: number, conversation: number, limit: number): Promise<Turn[]> {
      const rows = await db
        .selectFrom('turns')
        .select(['role', 'content'])
        .where('telegram_id', '=', String(telegramId))
        .where('conversation', '=', conversation)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse();
    },
    async append(telegramId: number, conversation: number, turns: Turn[]): Promise<void> {
      if (turns.length === 0) return;
      await db
        .insertInto('turns')
        .values(turns.map((turn) => ({ telegram_id: telegramId, conversation, ...turn })))
        .execute();
    },
  };
}
