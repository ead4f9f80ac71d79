import { type Kysely, type Migration } from 'kysely';

/** The credits billing's holds reserve, from `credits.changed`, so the profile shows what is available. */
export const heldCreditsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('held_credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
