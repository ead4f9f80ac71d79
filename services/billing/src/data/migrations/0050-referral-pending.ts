import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A refunded friend's bonus the inviter could not give back at once because their credits were held for a
 * model call: what is still to take back when those holds end (docs/money.md, Referral bonuses).
 */
export const referralPendingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('referral_rewards')
      .addColumn('pending_credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('referral_rewards_pending_idx')
      .on('referral_rewards')
      .column('referrer_id')
      .where(sql.ref('pending_credits'), '>', 0)
      .execute();
  },
};
