import { createMediaTable } from '@gpt/kit';
import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`now()`;

export const chatHistoryMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ai_models')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('model', 'text', (col) => col.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('input_price_per_1m', 'numeric(16, 6)', (col) => col.notNull().check(sql`input_price_per_1m >= 0`))
      .addColumn('output_price_per_1m', 'numeric(16, 6)', (col) => col.notNull().check(sql`output_price_per_1m >= 0`))
      .addColumn('is_active', 'boolean', (col) => col.notNull().defaultTo(true))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('sys_vals')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('key', 'text', (col) => col.notNull().unique())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('directory_users')
      .addColumn('user_id', 'integer', (col) => col.primaryKey())
      .addColumn('telegram_id', 'bigint', (col) => col.unique())
      .addColumn('email', 'text')
      .addColumn('username', 'text')
      .addColumn('telegram_username', 'text')
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('deleted_at', 'timestamptz')
      .addColumn('merged_into', 'integer')
      .execute();

    await createMediaTable(db);

    await db.schema
      .createTable('messages')
      .addColumn('id', 'bigserial', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('telegram_id', 'bigint')
      .addColumn('model', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('success', 'error')`))
      .addColumn('user_message', 'text', (col) => col.notNull())
      .addColumn('bot_response', 'text')
      .addColumn('error_message', 'text')
      .addColumn('image_id', 'text', (col) => col.references('media.id'))
      .addColumn('input_tokens', 'integer', (col) => col.notNull().check(sql`input_tokens >= 0`))
      .addColumn('output_tokens', 'integer', (col) => col.notNull().check(sql`output_tokens >= 0`))
      .addColumn('input_price_per_1m', 'numeric(16, 6)', (col) => col.notNull())
      .addColumn('output_price_per_1m', 'numeric(16, 6)', (col) => col.notNull())
      .addColumn('input_cost', 'numeric(30, 12)', (col) => col.notNull())
      .addColumn('output_cost', 'numeric(30, 12)', (col) => col.notNull())
      .addColumn('total_cost', 'numeric(30, 12)', (col) => col.notNull())
      .addColumn('cost', 'bigint', (col) => col.notNull().check(sql`cost >= 0`))
      .addColumn('idempotency_key', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .execute();

    // The list's default order (created_at desc, id desc), prev/next and deep pages walk these
    // backwards; ascending columns keep row comparisons such as (created_at, id) < (…) indexable.
    await sql`create index messages_created on messages (created_at, id)`.execute(db);
    await sql`create index messages_user_created on messages (user_id, created_at, id)`.execute(db);
    await sql`create unique index messages_idempotency_key on messages (idempotency_key) where idempotency_key is not null`.execute(
      db,
    );
  },
};
