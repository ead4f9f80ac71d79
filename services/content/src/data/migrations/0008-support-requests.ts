import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Contact-form messages become support requests the admin handles: who sent them (a signed-in user),
 * an e-mail to answer to, done or not, and the answer with how it went. The user projection keeps the
 * e-mail and the linked Telegram id, which decide where an answer goes (docs/product.md, «Обращения»).
 */
export const supportRequestsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('feedback')
      .addColumn('email', 'text')
      .addColumn('user_id', 'integer')
      .addColumn('status', 'text', (col) =>
        col
          .notNull()
          .defaultTo('new')
          .check(sql`status in ('new', 'done')`),
      )
      .addColumn('answer', 'text')
      .addColumn('answered_via', 'text', (col) => col.check(sql`answered_via in ('telegram', 'email')`))
      .addColumn('answered_at', 'timestamptz')
      .addColumn('answered_by', 'integer')
      .execute();
    await db.schema.createIndex('feedback_status_created').on('feedback').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('feedback_user').on('feedback').column('user_id').execute();
    await db.schema.alterTable('authors').addColumn('email', 'text').addColumn('telegram_id', 'bigint').execute();
  },
};
