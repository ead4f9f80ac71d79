import { sql, type Kysely, type Migration } from 'kysely';

/** Single-use password recovery tokens, stored as SHA-256 hashes only. */
export const passwordResetTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('password_reset_tokens')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('password_reset_tokens_user_created')
      .on('password_reset_tokens')
      .columns(['user_id', 'created_at'])
      .execute();
  },
};
