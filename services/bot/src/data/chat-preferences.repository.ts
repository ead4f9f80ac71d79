import type { Kysely } from 'kysely';
import type { BotDatabase } from './schema';

/** The web chat's model, mode and instructions of a user without a Telegram chat. */
export interface WebPreferences {
  model: string | null;
  modeId: number | null;
  instructions: string | null;
}

export function chatPreferencesRepository(db: Kysely<BotDatabase>) {
  return {
    async find(userId: number): Promise<WebPreferences | undefined> {
      const row = await db.selectFrom('chat_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return row && { model: row.model, modeId: row.mode_id, instructions: row.instructions };
    },
    async save(userId: number, preferences: WebPreferences): Promise<void> {
      const values = { model: preferences.model, mode_id: preferences.modeId, instructions: preferences.instructions };
      await db
        .insertInto('chat_preferences')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
  };
}
