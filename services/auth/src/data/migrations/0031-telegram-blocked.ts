import type { Kysely, Migration } from 'kysely';

/** Since when the Telegram user has blocked the bot (the bot reports it; null: not blocked). */
export const telegramBlockedMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('telegram_blocked_at', 'timestamptz').execute();
  },
};
