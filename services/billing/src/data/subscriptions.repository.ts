import type { AdminSubscriptionsQuery } from '@gpt/contracts';
import { listPage } from '@gpt/kit';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { BillingDatabase, SubscriptionConsentsTable, SubscriptionsTable } from './schema';

/** A subscription row with its tariff's name and included credits. */
export type SubscriptionRow = Selectable<SubscriptionsTable> & { tariff_name: string; included_credits: string };
export type SubscriptionPatch = Updateable<SubscriptionsTable>;
export type NewSubscription = Pick<
  SubscriptionsTable,
  | 'user_id'
  | 'tariff_id'
  | 'method'
  | 'price'
  | 'star_price'
  | 'payment_method_id'
  | 'card_last4'
  | 'telegram_charge_id'
  | 'consent_id'
  | 'first_payment_id'
> & { status: 'active'; paid_until: Date; star_invoice_id?: string | null };

const LIVE = ['active', 'past_due'] as const;

/** Renewing tariffs and the consents they were started with (docs/money.md, Subscriptions). */
export function subscriptionsRepository(db: Kysely<BillingDatabase>) {
  const rows = () =>
    db
      .selectFrom('subscriptions')
      .innerJoin('tariffs', 'tariffs.id', 'subscriptions.tariff_id')
      .selectAll('subscriptions')
      .select(['tariffs.name as tariff_name', 'tariffs.included_credits']);

  const adminRows = () =>
    rows()
      .leftJoin('users', 'users.id', 'subscriptions.user_id')
      .select(['users.username', 'users.first_name', 'users.last_name', 'users.email']);

  return {
    async insertConsent(consent: Omit<Selectable<SubscriptionConsentsTable>, 'id' | 'given_at'>): Promise<number> {
      const row = await db
        .insertInto('subscription_consents')
        .values(consent)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    consentOf: (paymentId: string) =>
      db.selectFrom('subscription_consents').selectAll().where('payment_id', '=', paymentId).executeTakeFirst(),

    /** A new subscription; null when its first payment (or Telegram charge) already started one. */
    async insert(subscription: NewSubscription): Promise<number | null> {
      const row = await db
        .insertInto('subscriptions')
        .values(subscription)
        .onConflict((oc) => oc.column('first_payment_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id ?? null;
    },

    find: (id: number) => rows().where('subscriptions.id', '=', id).executeTakeFirst(),

    /** Reads and locks the subscription until the transaction ends. */
    lock: (id: number) => rows().where('subscriptions.id', '=', id).forUpdate('subscriptions').executeTakeFirst(),

    /** Reads and locks the Stars subscription bought with this invoice. */
    lockByStarInvoice: (invoiceId: string) =>
      rows().where('subscriptions.star_invoice_id', '=', invoiceId).forUpdate('subscriptions').executeTakeFirst(),

    /** The user's subscriptions, the renewing ones first, then newest first. */
    ofUser: (userId: number) =>
      rows()
        .where('subscriptions.user_id', '=', userId)
        .orderBy(sql`subscriptions.status in ('active', 'past_due')`, 'desc')
        .orderBy('subscriptions.id', 'desc')
        .execute(),

    /** The user's renewing subscription of any tariff, if any: one renews at a time. */
    liveOf: (userId: number) =>
      rows().where('subscriptions.user_id', '=', userId).where('subscriptions.status', 'in', LIVE).executeTakeFirst(),

    async update(id: number, patch: SubscriptionPatch): Promise<void> {
      await db
        .updateTable('subscriptions')
        .set({ ...patch, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Card subscriptions whose charge is due: a first try `leadHours` before the paid end, a retry at its time.
     */
    async dueCharges(now: Date, leadHours: number, limit: number): Promise<number[]> {
      const lead = new Date(now.getTime() + leadHours * 3_600_000);
      const due = await db
        .selectFrom('subscriptions')
        .select('id')
        .where('method', '=', 'card')
        .where('status', 'in', LIVE)
        .where('payment_method_id', 'is not', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('attempt', '=', 0), eb('paid_until', '<=', lead)]),
            eb.and([eb('attempt', '>', 0), eb('retry_at', '<=', now)]),
          ]),
        )
        .orderBy('id')
        .limit(limit)
        .execute();
      return due.map((row) => row.id);
    },

    /** Active subscriptions whose next charge comes within `days` and whose owner has not been reminded of it. */
    async dueReminders(now: Date, leadHours: number, days: number, limit: number): Promise<number[]> {
      const horizon = new Date(now.getTime() + days * 86_400_000 + leadHours * 3_600_000);
      const due = await db
        .selectFrom('subscriptions')
        .select('id')
        .where('status', '=', 'active')
        .where('attempt', '=', 0)
        .whereRef('reminded_period', '<=', 'periods_paid')
        .where('paid_until', '<=', horizon)
        .where('paid_until', '>', now)
        .orderBy('id')
        .limit(limit)
        .execute();
      return due.map((row) => row.id);
    },

    /** Subscriptions past their grace period, or Stars subscriptions whose paid end passed `starsBefore` unrenewed. */
    async lapsed(now: Date, starsBefore: Date, limit: number): Promise<number[]> {
      const due = await db
        .selectFrom('subscriptions')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'past_due'), eb('grace_until', '<=', now)]),
            eb.and([
              eb('status', '=', 'active'),
              eb('method', '=', 'telegram_stars'),
              eb('paid_until', '<=', starsBefore),
            ]),
          ]),
        )
        .orderBy('id')
        .limit(limit)
        .execute();
      return due.map((row) => row.id);
    },

    adminRow: (id: number) => adminRows().where('subscriptions.id', '=', id).executeTakeFirst(),

    async adminPage(query: AdminSubscriptionsQuery) {
      let filtered = adminRows();
      if (query.userId !== undefined) filtered = filtered.where('subscriptions.user_id', '=', query.userId);
      if (query.status !== undefined) filtered = filtered.where('subscriptions.status', '=', query.status);
      if (query.method !== undefined) filtered = filtered.where('subscriptions.method', '=', query.method);
      return listPage(
        filtered,
        { by: `subscriptions.${query.sortField}`, order: query.sortOrder, nulls: 'smallest', id: 'subscriptions.id' },
        query,
      );
    },

    /** Renewing subscriptions, the roubles a month they bring, and those canceled since `since`. */
    async stats(since: Date) {
      const row = await db
        .selectFrom('subscriptions')
        .select([
          sql<string>`count(*) filter (where status in ('active', 'past_due'))`.as('active'),
          sql<string>`coalesce(sum(price) filter (where status in ('active', 'past_due')), 0)::numeric(14, 2)`.as(
            'mrr',
          ),
          sql<string>`count(*) filter (where canceled_at >= ${since})`.as('canceled'),
        ])
        .executeTakeFirstOrThrow();
      return { active: Number(row.active), mrr: row.mrr, canceled: Number(row.canceled) };
    },
  };
}
