import { sql, type Kysely, type Migration } from 'kysely';

export const tariffsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tariffs')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('monthly_price', 'numeric(12, 2)', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`monthly_price >= 0`),
      )
      .addColumn('credits_per_ruble', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(100)
          .check(sql`credits_per_ruble > 0`),
      )
      .addColumn('included_credits', 'bigint', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`included_credits >= 0`),
      )
      .addColumn('can_generate_images', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('is_active', 'boolean', (col) => col.notNull().defaultTo(true))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
