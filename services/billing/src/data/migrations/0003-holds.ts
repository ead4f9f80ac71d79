import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Holds: credits the bot reserves before a model call, so concurrent calls can never spend more
 * than the balance has. An active hold counts against the available balance until `expires_at`;
 * the recorded message settles it, the bot releases it, or the expiry job marks it expired.
 */
export const holdsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('holds')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount > 0`))
      .addColumn('status', 'text', (col) =>
        col.notNull().check(sql`status in ('active', 'settled', 'released', 'expired')`),
      )
      .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('settled_at', 'timestamptz')
      .addColumn('message_id', 'bigint')
      .execute();
    await db.schema
      .createIndex('holds_active_user')
      .on('holds')
      .columns(['user_id', 'expires_at'])
      .where(sql.ref('status'), '=', 'active')
      .execute();
    await db.schema
      .createIndex('holds_active_expiry')
      .on('holds')
      .column('expires_at')
      .where(sql.ref('status'), '=', 'active')
      .execute();
  },
};
