import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Growth: who invited each user (auth's snapshot) and their own referral code; the referral bonus
 * paid for each of a friend's payments (once per payment, taken back on refund); promo codes and
 * who redeemed them (once per person). Ledger entries get the label a person reads
 * («Бонус за друга», «Промокод КОД»).
 */
export const referralsAndPromoCodesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('referral_code', 'text')
      .addColumn('referred_by', 'integer')
      .execute();
    await db.schema.createIndex('billing_users_referred_by_idx').on('users').column('referred_by').execute();

    await db.schema
      .createTable('referral_rewards')
      .addColumn('payment_id', 'text', (col) => col.primaryKey())
      .addColumn('referrer_id', 'integer', (col) => col.notNull())
      .addColumn('friend_id', 'integer', (col) => col.notNull())
      .addColumn('credits', 'bigint', (col) => col.notNull().check(sql`credits >= 0`))
      .addColumn('revoked_credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('lost_credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema
      .createIndex('referral_rewards_referrer_friend_idx')
      .on('referral_rewards')
      .columns(['referrer_id', 'friend_id'])
      .execute();
    await db.schema
      .createIndex('referral_rewards_created_at_idx')
      .on('referral_rewards')
      .column('created_at')
      .execute();

    await db.schema
      .createTable('promo_codes')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('code', 'text', (col) => col.notNull().unique())
      .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('credits', 'tariff')`))
      .addColumn('credits', 'bigint')
      .addColumn('tariff_id', 'integer', (col) => col.references('tariffs.id').onDelete('restrict'))
      .addColumn('tariff_days', 'integer')
      .addColumn('max_uses', 'integer', (col) => col.notNull().check(sql`max_uses >= 1`))
      .addColumn('used_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('valid_from', 'timestamptz')
      .addColumn('valid_until', 'timestamptz')
      .addColumn('is_active', 'boolean', (col) => col.notNull().defaultTo(true))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addCheckConstraint('promo_codes_used_within_limit', sql`used_count <= max_uses`)
      .execute();
    await db.schema
      .createTable('promo_redemptions')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('promo_code_id', 'integer', (col) => col.notNull().references('promo_codes.id').onDelete('restrict'))
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('redeemed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('promo_redemptions_code_user_key', ['promo_code_id', 'user_id'])
      .execute();
  },
};
