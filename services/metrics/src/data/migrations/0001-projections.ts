import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The log of consumed events (the source of every projection and of a rebuild) and the
 * projections: one row per Moscow calendar day, each user's registration and removal days, and
 * the newest message.
 */
export const projectionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('event_log')
      .addColumn('seq', 'bigserial', (col) => col.primaryKey())
      .addColumn('event_id', 'uuid', (col) => col.notNull().unique())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('envelope', 'text', (col) => col.notNull())
      .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('daily_stats')
      .addColumn('day', 'date', (col) => col.primaryKey())
      .addColumn('new_users', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('removed_users', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('messages', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('spent_usd', 'numeric(24, 12)', (col) => col.notNull().defaultTo(0))
      .addColumn('deposited_rub', 'numeric(16, 2)', (col) => col.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('user_presence')
      .addColumn('user_id', 'bigint', (col) => col.primaryKey())
      .addColumn('registered_day', 'date')
      .addColumn('removed_day', 'date')
      .execute();

    await db.schema
      .createTable('last_message')
      .addColumn('slot', 'smallint', (col) =>
        col
          .primaryKey()
          .defaultTo(1)
          .check(sql`slot = 1`),
      )
      .addColumn('message_id', 'bigint', (col) => col.notNull())
      .addColumn('username', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('user_message', 'text', (col) => col.notNull())
      .addColumn('bot_response', 'text')
      .addColumn('model', 'text', (col) => col.notNull())
      .addColumn('total_cost', 'numeric(24, 12)', (col) => col.notNull())
      .execute();
  },
};
