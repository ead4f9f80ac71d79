import type { Kysely, Migration } from 'kysely';

/** Projection of auth's users: the names shown as an article's author. */
export const authorsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('authors')
      .addColumn('user_id', 'integer', (col) => col.primaryKey())
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('username', 'text')
      .addColumn('version', 'integer', (col) => col.notNull())
      .execute();
  },
};
