import type { Kysely, Migration } from 'kysely';

/**
 * The Telegram account its owner chose, signed in on the site, to receive password-reset links at (null:
 * e-mail only). It counts only while that same Telegram account is linked (docs/security.md, Password recovery).
 */
export const resetByTelegramMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('reset_telegram_id', 'bigint').execute();
  },
};
