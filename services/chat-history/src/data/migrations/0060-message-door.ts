import { sql, type Kysely, type Migration } from 'kysely';

/** Each message records the door it came through: the bot (every message so far) or the web chat. */
export const messageDoorMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('messages')
      .addColumn('door', 'text', (col) =>
        col
          .notNull()
          .defaultTo('telegram')
          .check(sql`door in ('telegram', 'web')`),
      )
      .execute();
  },
};
