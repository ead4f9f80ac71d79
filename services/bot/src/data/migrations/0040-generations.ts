import { sql, type Kysely, type Migration } from 'kysely';

/** Answers being generated (what a restart finds interrupted), webhook updates already taken, and blocked chats. */
export const generationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('generations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('owner', 'text', (col) => col.notNull())
      .addColumn('telegram_id', 'bigint', (col) => col.notNull())
      .addColumn('chat_id', 'bigint', (col) => col.notNull())
      .addColumn('message_id', 'integer')
      .addColumn('hold_id', 'text', (col) => col.notNull())
      .addColumn('started_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('generations_owner').on('generations').column('owner').execute();

    await db.schema
      .createTable('webhook_updates')
      .addColumn('update_id', 'bigint', (col) => col.primaryKey())
      .addColumn('chat_id', 'bigint', (col) => col.notNull())
      .addColumn('payload', 'jsonb', (col) => col.notNull())
      .addColumn('handled_at', 'timestamptz')
      .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('webhook_updates_pending')
      .on('webhook_updates')
      .columns(['chat_id', 'update_id'])
      .where(sql.ref('handled_at'), 'is', null)
      .execute();

    await db.schema.alterTable('chats').addColumn('blocked_at', 'timestamptz').execute();
  },
};
