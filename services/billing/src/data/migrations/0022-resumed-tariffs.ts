import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A paid tariff set aside while a promo code's higher tariff runs: which tariff comes back when
 * the promo period ends, for how many seconds, and with at most how many included credits
 * (see docs/money.md, «Промокоды на тариф»).
 */
export const resumedTariffsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('balances')
      .addColumn('resume_tariff_id', 'integer', (col) => col.references('tariffs.id'))
      .addColumn('resume_seconds', 'bigint', (col) => col.check(sql`resume_seconds > 0`))
      .addColumn('resume_included_credits', 'bigint', (col) => col.check(sql`resume_included_credits >= 0`))
      .execute();
  },
};
