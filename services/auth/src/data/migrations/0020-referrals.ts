import { type Kysely, type Migration, sql } from 'kysely';
import { newReferralCode } from '../referral-code';

/**
 * Every user's own referral code (unique, upper case) and who invited them (set at first contact
 * only). Users from before get a code now.
 */
export const referralsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('referral_code', 'text')
      .addColumn('referred_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
      .execute();
    const rows = await sql<{ id: number }>`select id from users where referral_code is null`.execute(db);
    for (const row of rows.rows) {
      await sql`update users set referral_code = ${newReferralCode()} where id = ${row.id}`.execute(db);
    }
    await sql`alter table users alter column referral_code set not null`.execute(db);
    await db.schema.createIndex('users_referral_code_key').unique().on('users').column('referral_code').execute();
    await db.schema.createIndex('users_referred_by_idx').on('users').column('referred_by').execute();
  },
};
