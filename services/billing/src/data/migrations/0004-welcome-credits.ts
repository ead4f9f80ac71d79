import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The welcome grant: each balance records the welcome credits it holds (at most one grant, also
 * after a merge), and billing keeps the settings it needs (`welcome_credits`) as chat-history's
 * `setting.changed` events tell them, newest version first.
 */
export const welcomeCreditsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('balances')
      .addColumn('welcome_credits', 'bigint', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`welcome_credits >= 0`),
      )
      .execute();
    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text')
      .addColumn('version', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
