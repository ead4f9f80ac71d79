import { type Kysely, type Migration } from 'kysely';
import { createSingleUseTokensTable } from './single-use-tokens-table';

/** Single-use sign-in links the bot gives a Telegram user (`/web`), stored as SHA-256 hashes only. */
export const signInTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await createSingleUseTokensTable(db, 'sign_in_tokens');
    await db.schema.createIndex('sign_in_tokens_user').on('sign_in_tokens').column('user_id').execute();
  },
};
