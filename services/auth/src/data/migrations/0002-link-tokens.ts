import { sql, type Kysely, type Migration } from 'kysely';

/** Single-use Telegram link tokens, stored as SHA-256 hashes only. */
export const linkTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('link_tokens')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('telegram_id', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('used_by', 'integer')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
