import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One ledger for every way to pay: a payment names its provider (a card through YooKassa, or
 * Telegram Stars with the stars paid and Telegram's charge id, unique, so a `successful_payment`
 * delivered twice is recorded once), and can be refunded (`refunded`, with the provider's refund
 * id and time; `refund_started_at` marks a refund whose credits the ledger has taken back while
 * the provider is asked, `refund_attempt` numbers the tries, so each try has its own ledger
 * reference and idempotence key). `star_invoices` keeps the price of every Stars invoice the bot
 * sent: the invoice payload is its id, so a payload is looked up, never believed. A ledger entry
 * gets a description in words.
 */
export const starsAndRefundsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table payments drop constraint if exists payments_status_check`.execute(db);
    await sql`alter table payments add constraint payments_status_check
      check (status in ('pending', 'pending_email', 'succeeded', 'canceled', 'failed', 'refunded'))`.execute(db);
    await db.schema
      .alterTable('payments')
      .addColumn('provider', 'text', (col) =>
        col
          .notNull()
          .defaultTo('yookassa')
          .check(sql`provider in ('yookassa', 'telegram_stars')`),
      )
      .addColumn('star_amount', 'integer', (col) => col.check(sql`star_amount > 0`))
      .addColumn('telegram_payment_charge_id', 'text', (col) => col.unique())
      .addColumn('refund_id', 'text')
      .addColumn('refunded_at', 'timestamptz')
      .addColumn('refund_started_at', 'timestamptz')
      .addColumn('refund_attempt', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();

    // A ledger entry may say in words what it is («Возврат платежа 42»).
    await db.schema.alterTable('ledger_entries').addColumn('description', 'text').execute();

    await db.schema
      .createTable('star_invoices')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('topup', 'tariff')`))
      .addColumn('tariff_id', 'integer', (col) => col.references('tariffs.id').onDelete('cascade'))
      .addColumn('amount', 'numeric(12, 2)', (col) => col.notNull().check(sql`amount > 0`))
      .addColumn('credits_amount', 'bigint', (col) => col.notNull().check(sql`credits_amount >= 0`))
      .addColumn('star_amount', 'integer', (col) => col.notNull().check(sql`star_amount > 0`))
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
