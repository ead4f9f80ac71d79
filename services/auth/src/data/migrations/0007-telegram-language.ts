import { type Kysely, type Migration } from 'kysely';

/** The language of the user's Telegram app (IETF tag, e.g. `ru`), as the bot reports it. */
export const telegramLanguageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('telegram_language', 'text').execute();
  },
};
