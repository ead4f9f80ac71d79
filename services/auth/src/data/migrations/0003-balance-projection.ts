import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Auth's projection of what other services own, for the profile and the admin list: the balance
 * and tariff from billing's `credits.changed` (applied only when `billing_version` grows) and the
 * message count and dollar spend from chat-history's `message.recorded`. Until billing reports,
 * a user reads as the Base tariff with 0 credits.
 */
export const balanceProjectionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('included_credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('tariff_id', 'integer')
      .addColumn('tariff_name', 'text', (col) => col.notNull().defaultTo('Base'))
      .addColumn('monthly_price', sql`numeric(12, 2)`, (col) => col.notNull().defaultTo(0))
      .addColumn('tariff_end_date', 'timestamptz')
      .addColumn('money_deposited', sql`numeric(16, 2)`, (col) => col.notNull().defaultTo(0))
      .addColumn('money_spent', sql`numeric(24, 12)`, (col) => col.notNull().defaultTo(0))
      .addColumn('messages_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('billing_version', 'integer')
      .execute();
  },
};
