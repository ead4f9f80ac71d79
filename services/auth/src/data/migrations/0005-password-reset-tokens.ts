import { type Kysely, type Migration } from 'kysely';
import { createSingleUseTokensTable } from './single-use-tokens-table';

/** Single-use password recovery tokens, stored as SHA-256 hashes only. */
export const passwordResetTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await createSingleUseTokensTable(db, 'password_reset_tokens');
    await db.schema
      .createIndex('password_reset_tokens_user_created')
      .on('password_reset_tokens')
      .columns(['user_id', 'created_at'])
      .execute();
  },
};
