import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Broadcasts and their deliveries: one row per broadcast and recipient, claimed before it is sent, so
 * no restart or second replica sends it twice (docs/bot.md, Broadcasts); and when each user last wrote
 * to the bot, for the audience's activity.
 */
export const broadcastsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('broadcasts')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('content', 'jsonb', (col) => col.notNull())
      .addColumn('audience', 'jsonb', (col) => col.notNull())
      .addColumn('send_at', 'timestamptz', (col) => col.notNull())
      .addColumn('created_by', 'integer', (col) => col.notNull())
      .addColumn('created_by_name', 'text', (col) => col.notNull())
      .addColumn('total', 'integer')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('started_at', 'timestamptz')
      .addColumn('finished_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('broadcasts_status').on('broadcasts').columns(['status', 'send_at']).execute();
    await db.schema
      .createTable('broadcast_deliveries')
      .addColumn('broadcast_id', 'integer', (col) => col.notNull().references('broadcasts.id').onDelete('cascade'))
      .addColumn('telegram_id', 'int8', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('owner', 'text')
      .addColumn('next_at', 'timestamptz')
      .addColumn('sent_at', 'timestamptz')
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('broadcast_deliveries_pkey', ['broadcast_id', 'telegram_id'])
      .execute();
    await db.schema
      .createIndex('broadcast_deliveries_status')
      .on('broadcast_deliveries')
      .columns(['broadcast_id', 'status'])
      .execute();
    await db.schema.alterTable('chats').addColumn('last_active_at', 'timestamptz').execute();
    await sql`update chats set last_active_at = updated_at`.execute(db);
  },
};
