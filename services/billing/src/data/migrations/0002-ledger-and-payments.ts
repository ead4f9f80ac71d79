import { sql, type Kysely, type Migration } from 'kysely';

const createdAt = sql`now()`;

/**
 * The users billing knows (its projection of auth's events), their balances, the append-only
 * ledger every balance change is written to, payments, and the sandbox provider's payments.
 */
export const ledgerAndPaymentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // Base is found by this flag, not by its name, so the admin may rename it.
    await db.schema
      .alterTable('tariffs')
      .addColumn('is_default', 'boolean', (col) => col.notNull().defaultTo(false))
      .execute();
    await db.schema
      .createIndex('tariffs_one_default')
      .on('tariffs')
      .column('is_default')
      .unique()
      .where(sql.ref('is_default'), '=', true)
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('email', 'text')
      .addColumn('username', 'text')
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('telegram_id', 'bigint')
      .addColumn('telegram_email', 'text')
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('merged_into', 'integer')
      .addColumn('deleted_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .execute();
    await db.schema.createIndex('users_telegram_id').on('users').column('telegram_id').execute();
    await db.schema.createIndex('users_username').on('users').column('username').execute();

    await db.schema
      .createTable('balances')
      .addColumn('user_id', 'integer', (col) => col.primaryKey())
      .addColumn('credits', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('included_credits', 'bigint', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`included_credits >= 0`),
      )
      .addColumn('tariff_id', 'integer', (col) => col.notNull().references('tariffs.id').onDelete('restrict'))
      .addColumn('tariff_end_date', 'timestamptz')
      .addColumn('money_deposited', 'numeric(14, 2)', (col) => col.notNull().defaultTo(0))
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .execute();
    await db.schema
      .createIndex('balances_tariff_end_date')
      .on('balances')
      .column('tariff_end_date')
      .where(sql.ref('tariff_end_date'), 'is not', null)
      .execute();

    await db.schema
      .createTable('ledger_entries')
      .addColumn('id', 'bigserial', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('reference', 'text', (col) => col.notNull())
      .addColumn('bucket', 'text', (col) => col.notNull().check(sql`bucket in ('included', 'credits')`))
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('balance_after', 'bigint', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('admin_id', 'integer')
      .addColumn('payment_id', 'integer')
      .addColumn('tariff_id', 'integer')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      // A reference applies once: replaying it can never write a second entry.
      .addUniqueConstraint('ledger_entries_reference', ['reference', 'user_id', 'bucket'])
      .execute();
    await db.schema.createIndex('ledger_entries_user').on('ledger_entries').columns(['user_id', 'id']).execute();

    await db.schema
      .createTable('payments')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('payment_id', 'text', (col) => col.notNull().unique())
      .addColumn('yookassa_payment_id', 'text', (col) => col.unique())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('topup', 'tariff')`))
      .addColumn('tariff_id', 'integer', (col) => col.references('tariffs.id').onDelete('restrict'))
      .addColumn('amount', 'numeric(12, 2)', (col) => col.notNull().check(sql`amount > 0`))
      .addColumn('currency', 'text', (col) => col.notNull().defaultTo('RUB'))
      .addColumn('credits_amount', 'bigint', (col) => col.notNull().check(sql`credits_amount >= 0`))
      .addColumn('status', 'text', (col) =>
        col.notNull().check(sql`status in ('pending', 'pending_email', 'succeeded', 'canceled', 'failed')`),
      )
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('email', 'text')
      .addColumn('confirmation_url', 'text')
      .addColumn('source', 'text', (col) => col.notNull().check(sql`source in ('web', 'bot')`))
      .addColumn('metadata', 'jsonb')
      .addColumn('cancellation_party', 'text')
      .addColumn('cancellation_reason', 'text')
      .addColumn('failure_reason', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .addColumn('succeeded_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('payments_user').on('payments').column('user_id').execute();
    await db.schema.createIndex('payments_created_at').on('payments').column('created_at').execute();
    await db.schema
      .createIndex('payments_pending')
      .on('payments')
      .column('created_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();

    // The sandbox provider (no YooKassa keys): its own payments, read back exactly like the real API.
    await db.schema
      .createTable('sandbox_payments')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('idempotence_key', 'text', (col) => col.notNull().unique())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('amount', 'numeric(12, 2)', (col) => col.notNull())
      .addColumn('currency', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('metadata', 'jsonb', (col) => col.notNull())
      .addColumn('return_url', 'text', (col) => col.notNull())
      .addColumn('receipt_email', 'text')
      .addColumn('cancellation_party', 'text')
      .addColumn('cancellation_reason', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(createdAt))
      .addColumn('captured_at', 'timestamptz')
      .execute();
  },
};
