import { type Kysely, type Migration } from 'kysely';

/** The welcome grant each balance holds, from `credits.changed`, so the personal account can show it. */
export const welcomeCreditsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('welcome_credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
