import { sql, type Kysely, type Migration } from 'kysely';

export const botMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('chats')
      .addColumn('telegram_id', 'bigint', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('chat_id', 'bigint', (col) => col.notNull())
      .addColumn('model', 'text')
      .addColumn('web_linked', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('conversation', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('low_balance_alerted', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('awaiting_email_payment', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('chats_user_id').on('chats').column('user_id').execute();

    await db.schema
      .createTable('turns')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('telegram_id', 'bigint', (col) => col.notNull())
      .addColumn('conversation', 'integer', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('user', 'assistant')`))
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('turns_conversation')
      .on('turns')
      .columns(['telegram_id', 'conversation', 'id'])
      .execute();
  },
};
