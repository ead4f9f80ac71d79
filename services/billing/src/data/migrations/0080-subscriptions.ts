import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Renewing tariffs (docs/money.md, Subscriptions). `subscription_consents`: the consent «Продлевать автоматически»
 * a user gave with a payment — the text shown, its version, the time — kept even when the payment never succeeds.
 * `subscriptions`: one per renewing tariff, paid by a saved card (`payment_method_id`, erased when the card is
 * removed) or a Telegram Stars subscription (the charge id Telegram cancels it by); `periods_paid` counts the paid
 * months, so a renewal is the period `periods_paid + 1`, and `attempt` the declined tries of it. A renewal's payment
 * names its subscription, period and try, unique, so however many runs start the same charge there is one payment
 * (and one YooKassa Idempotence-Key). The sandbox provider saves methods and charges them like YooKassa.
 */
export const subscriptionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('subscription_consents')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('tariff_id', 'integer', (col) => col.notNull().references('tariffs.id'))
      .addColumn('payment_id', 'uuid', (col) => col.notNull().unique())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('text', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('given_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('tariff_id', 'integer', (col) => col.notNull().references('tariffs.id'))
      .addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('card', 'telegram_stars')`))
      .addColumn('status', 'text', (col) =>
        col.notNull().check(sql`status in ('active', 'past_due', 'canceled', 'ended')`),
      )
      .addColumn('price', 'numeric(12, 2)', (col) => col.notNull().check(sql`price > 0`))
      .addColumn('star_price', 'integer', (col) => col.check(sql`star_price > 0`))
      .addColumn('payment_method_id', 'text')
      .addColumn('card_last4', 'text')
      .addColumn('telegram_charge_id', 'text', (col) => col.unique())
      .addColumn('consent_id', 'integer', (col) => col.references('subscription_consents.id'))
      .addColumn('first_payment_id', 'integer', (col) => col.notNull().unique())
      .addColumn('paid_until', 'timestamptz', (col) => col.notNull())
      .addColumn('periods_paid', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('first_declined_at', 'timestamptz')
      .addColumn('retry_at', 'timestamptz')
      .addColumn('grace_until', 'timestamptz')
      .addColumn('last_failure', 'text')
      .addColumn('last_failure_at', 'timestamptz')
      .addColumn('needs_new_card', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('reminded_period', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('canceled_at', 'timestamptz')
      .addColumn('ended_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('subscriptions_user').on('subscriptions').column('user_id').execute();
    await db.schema.createIndex('subscriptions_status').on('subscriptions').columns(['status', 'paid_until']).execute();

    await db.schema
      .alterTable('payments')
      .addColumn('auto_renew', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('subscription_id', 'integer', (col) => col.references('subscriptions.id'))
      .addColumn('renewal_period', 'integer')
      .addColumn('renewal_try', 'integer')
      .execute();
    await sql`create unique index payments_renewal on payments (subscription_id, renewal_period, renewal_try)
      where renewal_period is not null`.execute(db);

    await db.schema
      .alterTable('star_invoices')
      .addColumn('subscription', 'boolean', (col) => col.notNull().defaultTo(false))
      .execute();

    await db.schema
      .alterTable('sandbox_payments')
      .addColumn('save_payment_method', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('payment_method_id', 'text')
      .execute();
  },
};
