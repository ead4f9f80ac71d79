import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Each welcome grant with the address its account signed up from (null: a bot user), so the grants
 * of one address a day can be counted (the setting welcome_per_address_daily).
 */
export const welcomeGrantsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('welcome_grants')
      .addColumn('user_id', 'integer', (col) => col.primaryKey())
      .addColumn('address', 'text')
      .addColumn('granted_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('welcome_grants_address_granted')
      .on('welcome_grants')
      .columns(['address', 'granted_at'])
      .execute();
  },
};
