import { sql, type Kysely, type Migration } from 'kysely';

export const usersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('email', 'text', (col) => col.check(sql`email = lower(email)`))
      .addColumn('password_hash', 'text')
      .addColumn('role', 'text', (col) =>
        col
          .notNull()
          .defaultTo('user')
          .check(sql`role in ('admin', 'user')`),
      )
      .addColumn('username', 'text')
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('utm_source', 'text')
      .addColumn('telegram_id', 'bigint', (col) => col.unique())
      .addColumn('telegram_username', 'text')
      .addColumn('telegram_email', 'text')
      .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();
  },
};
