import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Whether auth still has to hear of a chat's blocked mark (`chats.blocked_at`, set or cleared): a report
 * that failed (auth down) is sent again by the next process to look, never lost.
 */
export const blockedReportsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('chats')
      .addColumn('blocked_unreported', 'boolean', (col) => col.notNull().defaultTo(false))
      .execute();
    await db.schema
      .createIndex('chats_blocked_unreported')
      .on('chats')
      .column('telegram_id')
      .where(sql.ref('blocked_unreported'), '=', true)
      .execute();
  },
};
