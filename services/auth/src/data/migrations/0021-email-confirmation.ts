import { sql, type Kysely, type Migration } from 'kysely';
import { createSingleUseTokensTable } from './single-use-tokens-table';

/**
 * E-mail confirmation (the welcome credits wait for it): when each account was confirmed and the
 * address it signed up from, and single-use confirmation links stored as SHA-256 hashes only. Users
 * from before count as confirmed: they already had their welcome grant at sign-up.
 */
export const emailConfirmationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('email_confirmed_at', 'timestamptz')
      .addColumn('registration_ip', 'text')
      .execute();
    await sql`update users set email_confirmed_at = created_at`.execute(db);
    await createSingleUseTokensTable(db, 'email_confirmation_tokens');
    await db.schema
      .createIndex('email_confirmation_tokens_user')
      .on('email_confirmation_tokens')
      .column('user_id')
      .execute();
  },
};
