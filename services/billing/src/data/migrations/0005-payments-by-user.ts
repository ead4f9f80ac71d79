import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The personal account's payment history reads a user's payments newest first, a page at a time:
 * one index in that order instead of every payment of the user sorted on each read. It serves what
 * the user-only index served (a prefix of it), which goes.
 */
export const paymentsByUserMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('payments_user_newest')
      .on('payments')
      .expression(sql`user_id, created_at desc, id desc`)
      .execute();
    await db.schema.dropIndex('payments_user').execute();
  },
};
