import type { AdminPaymentsQuery, Payment, PaymentKind, PaymentProvider, PaymentStatus } from '@gpt/contracts';
import { containsPattern, listPage } from '@gpt/kit';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase, PaymentsTable } from './schema';

/** A payment as the domain reads it. */
export interface PaymentRecord {
  id: number;
  paymentId: string;
  yookassaPaymentId: string | null;
  userId: number;
  kind: PaymentKind;
  tariffId: number | null;
  amount: string;
  currency: 'RUB';
  creditsAmount: number;
  status: PaymentStatus;
  description: string;
  /** Why a canceled payment was canceled (the provider's reason, or `email_not_given`). */
  cancellationReason: string | null;
  email: string | null;
  confirmationUrl: string | null;
  source: 'web' | 'bot';
  metadata: Record<string, string> | null;
  provider: PaymentProvider;
  starAmount: number | null;
  telegramPaymentChargeId: string | null;
  refundId: string | null;
  refundedAt: Date | null;
  /** A refund under way: the ledger has taken the credits back, the provider has not confirmed yet. */
  refundStartedAt: Date | null;
  refundAttempt: number;
  /** The provider's Idempotence-Key of the refund try under way. */
  refundKey: string | null;
  /** «Продлевать автоматически» was ticked with it. */
  autoRenew: boolean;
  /** A renewal: its subscription and the period it pays. */
  subscriptionId: number | null;
  renewalPeriod: number | null;
  renewalTry: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A Stars payment Telegram has taken: recorded as succeeded at once. */
export interface NewStarsPayment extends Omit<NewPayment, 'status' | 'email' | 'source'> {
  starAmount: number;
  telegramPaymentChargeId: string;
}

/** A payment locked for settling, with where its payer's account went if it was merged. */
export interface LockedPayment extends PaymentRecord {
  userMergedInto: number | null;
}

export interface NewPayment {
  paymentId: string;
  userId: number;
  kind: PaymentKind;
  tariffId: number | null;
  amount: string;
  creditsAmount: number;
  status: 'pending' | 'pending_email';
  description: string;
  email: string | null;
  source: 'web' | 'bot';
  metadata: Record<string, string>;
  autoRenew?: boolean;
  /** A renewal's subscription, the period it pays and which try of it this is. */
  renewal?: { subscriptionId: number; period: number; attempt: number };
}

function toRecord(row: Selectable<PaymentsTable>): PaymentRecord {
  return {
    id: row.id,
    paymentId: row.payment_id,
    yookassaPaymentId: row.yookassa_payment_id,
    userId: row.user_id,
    kind: row.kind,
    tariffId: row.tariff_id,
    amount: row.amount,
    currency: 'RUB',
    creditsAmount: toSafeInt(row.credits_amount),
    status: row.status,
    description: row.description,
    cancellationReason: row.cancellation_reason,
    email: row.email,
    confirmationUrl: row.confirmation_url,
    source: row.source,
    metadata: row.metadata,
    provider: row.provider,
    starAmount: row.star_amount,
    telegramPaymentChargeId: row.telegram_payment_charge_id,
    refundId: row.refund_id,
    refundedAt: row.refunded_at,
    refundStartedAt: row.refund_started_at,
    refundAttempt: row.refund_attempt,
    refundKey: row.refund_key,
    autoRenew: row.auto_renew,
    subscriptionId: row.subscription_id,
    renewalPeriod: row.renewal_period,
    renewalTry: row.renewal_try,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const now = () => sql<Date>`now()`;

export function paymentsRepository(db: Kysely<BillingDatabase>) {
  const adminRows = () =>
    db
      .selectFrom('payments')
      .leftJoin('users', 'users.id', 'payments.user_id')
      .selectAll('payments')
      .select(['users.username', 'users.first_name', 'users.last_name', 'users.email as user_email']);
  type AdminRow = Awaited<ReturnType<ReturnType<typeof adminRows>['executeTakeFirstOrThrow']>>;
  const toAdminPayment = (row: AdminRow): Payment => ({
    id: row.id,
    payment_id: row.payment_id,
    yookassa_payment_id: row.yookassa_payment_id,
    user_id: row.user_id,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email ?? row.user_email,
    user_email: row.user_email,
    kind: row.kind,
    tariff_id: row.tariff_id,
    amount: row.amount,
    currency: 'RUB',
    credits_amount: toSafeInt(row.credits_amount),
    status: row.status,
    description: row.description,
    cancellation_reason: row.cancellation_reason,
    metadata: row.metadata,
    provider: row.provider,
    star_amount: row.star_amount,
    telegram_payment_charge_id: row.telegram_payment_charge_id,
    refund_id: row.refund_id,
    refunded_at: row.refunded_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });

  /** Reads and locks one payment until the transaction ends, with where its payer's account went if it was merged. */
  async function lockWithPayer(
    column: 'payments.id' | 'payments.payment_id',
    value: number | string,
  ): Promise<LockedPayment | null> {
    const row = await db
      .selectFrom('payments')
      .leftJoin('users', 'users.id', 'payments.user_id')
      .selectAll('payments')
      .select('users.merged_into')
      .where(column, '=', value)
      .forUpdate('payments')
      .executeTakeFirst();
    if (!row) return null;
    const { merged_into: mergedInto, ...payment } = row;
    return { ...toRecord(payment), userMergedInto: mergedInto };
  }

  /** The columns every new payment fills, whoever pays it. */
  const newRow = (payment: Omit<NewPayment, 'status' | 'email' | 'source'>) => ({
    payment_id: payment.paymentId,
    user_id: payment.userId,
    kind: payment.kind,
    tariff_id: payment.tariffId,
    amount: payment.amount,
    credits_amount: payment.creditsAmount,
    description: payment.description,
    metadata: JSON.stringify(payment.metadata),
  });

  return {
    async insert(payment: NewPayment): Promise<PaymentRecord> {
      const row = await db
        .insertInto('payments')
        .values({
          ...newRow(payment),
          status: payment.status,
          email: payment.email,
          source: payment.source,
          auto_renew: payment.autoRenew ?? false,
          subscription_id: payment.renewal?.subscriptionId ?? null,
          renewal_period: payment.renewal?.period ?? null,
          renewal_try: payment.renewal?.attempt ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    /**
     * Records a Stars payment as succeeded, unless its Telegram charge id is already recorded
     * (then null: a second delivery of the same `successful_payment`, or one that raced this).
     */
    async insertStars(payment: NewStarsPayment): Promise<LockedPayment | null> {
      const row = await db
        .insertInto('payments')
        .values({
          ...newRow(payment),
          status: 'succeeded',
          email: null,
          source: 'bot',
          provider: 'telegram_stars',
          star_amount: payment.starAmount,
          telegram_payment_charge_id: payment.telegramPaymentChargeId,
          succeeded_at: now(),
        })
        .onConflict((oc) => oc.column('telegram_payment_charge_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ? { ...toRecord(row), userMergedInto: null } : null;
    },

    async findByChargeId(chargeId: string): Promise<PaymentRecord | null> {
      const row = await db
        .selectFrom('payments')
        .selectAll()
        .where('telegram_payment_charge_id', '=', chargeId)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /**
     * A refund begins: its try number grows and `key` becomes the provider's Idempotence-Key of the try; the
     * ledger has taken the credits back in the same transaction.
     */
    async startRefund(id: number, key: string): Promise<number> {
      const row = await db
        .updateTable('payments')
        .set({
          refund_started_at: now(),
          refund_attempt: sql<number>`refund_attempt + 1`,
          refund_key: key,
          updated_at: now(),
        })
        .where('id', '=', id)
        .returning('refund_attempt')
        .executeTakeFirstOrThrow();
      return row.refund_attempt;
    },

    /** The provider refused the refund for good: the payment is succeeded again, with no refund under way. */
    async abandonRefund(id: number): Promise<void> {
      await db
        .updateTable('payments')
        .set({ refund_started_at: null, updated_at: now() })
        .where('id', '=', id)
        .execute();
    },

    async markRefunded(id: number, refundId: string): Promise<void> {
      await db
        .updateTable('payments')
        .set({
          status: 'refunded',
          refund_id: refundId,
          refunded_at: now(),
          refund_started_at: null,
          updated_at: now(),
        })
        .where('id', '=', id)
        .execute();
    },

    /** The payment of a renewal's try, if one was started. */
    async findRenewal(subscriptionId: number, period: number, attempt: number): Promise<PaymentRecord | null> {
      const row = await db
        .selectFrom('payments')
        .selectAll()
        .where('subscription_id', '=', subscriptionId)
        .where('renewal_period', '=', period)
        .where('renewal_try', '=', attempt)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async findByPaymentId(paymentId: string): Promise<PaymentRecord | null> {
      const row = await db.selectFrom('payments').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** Reads and locks the payment named by our public id until the transaction ends. */
    lockByPaymentId: (paymentId: string) => lockWithPayer('payments.payment_id', paymentId),

    /** Reads and locks the payment until the transaction ends. */
    async lock(id: number): Promise<PaymentRecord | null> {
      const row = await db.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** Reads and locks the payment with where its payer's account went if it was merged. */
    lockWithPayer: (id: number) => lockWithPayer('payments.id', id),

    /** The provider accepted the payment: its id and where the payer confirms it. */
    async markCreated(id: number, yookassaPaymentId: string, confirmationUrl: string | null): Promise<PaymentRecord> {
      const row = await db
        .updateTable('payments')
        .set({ yookassa_payment_id: yookassaPaymentId, confirmation_url: confirmationUrl, updated_at: now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    /** The receipt e-mail of the user's latest payment that has one. */
    async lastEmailOf(userId: number): Promise<string | null> {
      const row = await db
        .selectFrom('payments')
        .select('email')
        .where('user_id', '=', userId)
        .where('email', 'is not', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.email ?? null;
    },

    /** Supplies the receipt e-mail of a payment that waited for it; false when it no longer waits. */
    async supplyEmail(id: number, email: string): Promise<boolean> {
      const result = await db
        .updateTable('payments')
        .set({ email, status: 'pending', updated_at: now() })
        .where('id', '=', id)
        .where('status', '=', 'pending_email')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async markSucceeded(id: number, yookassaPaymentId: string): Promise<void> {
      await db
        .updateTable('payments')
        .set({ status: 'succeeded', yookassa_payment_id: yookassaPaymentId, succeeded_at: now(), updated_at: now() })
        .where('id', '=', id)
        .execute();
    },

    async markCanceled(id: number, party: string | null, reason: string | null): Promise<void> {
      await db
        .updateTable('payments')
        .set({ status: 'canceled', cancellation_party: party, cancellation_reason: reason, updated_at: now() })
        .where('id', '=', id)
        .execute();
    },

    async markFailed(id: number, reason: string): Promise<void> {
      await db
        .updateTable('payments')
        .set({ status: 'failed', failure_reason: reason, updated_at: now() })
        .where('id', '=', id)
        .execute();
    },

    /** Payments still in `status` (pending, or waiting for an e-mail) that were created before `before`, oldest first. */
    async pendingBefore(
      before: Date,
      limit: number,
      status: 'pending' | 'pending_email' = 'pending',
    ): Promise<PaymentRecord[]> {
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where('status', '=', status)
        .where('created_at', '<', before)
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },

    async moveToUser(fromUserId: number, toUserId: number): Promise<void> {
      await db
        .updateTable('payments')
        .set({ user_id: toUserId, updated_at: now() })
        .where('user_id', '=', fromUserId)
        .execute();
    },

    /** One user's payments, newest first, a page at a time. */
    async userPage(
      userId: number,
      page: { page: number; limit: number },
    ): Promise<{ payments: PaymentRecord[]; total: number }> {
      const own = db.selectFrom('payments').where('user_id', '=', userId).selectAll();
      const { rows, total } = await listPage(own, { by: 'created_at', order: 'desc' }, page);
      return { payments: rows.map(toRecord), total };
    },

    async adminPage(query: AdminPaymentsQuery): Promise<{ payments: Payment[]; total: number }> {
      let filtered = adminRows();
      if (query.userId !== undefined) filtered = filtered.where('payments.user_id', '=', query.userId);
      if (query.status !== undefined) filtered = filtered.where('payments.status', '=', query.status);
      if (query.provider !== undefined) filtered = filtered.where('payments.provider', '=', query.provider);
      if (query.username !== undefined) {
        filtered = filtered.where('users.username', 'ilike', containsPattern(query.username));
      }
      const sortColumn = query.sortField === 'username' ? 'users.username' : `payments.${query.sortField}`;
      const { rows, total } = await listPage(
        filtered,
        { by: sortColumn, order: query.sortOrder, nulls: 'smallest', id: 'payments.id' },
        query,
      );
      return { payments: rows.map(toAdminPayment), total };
    },

    async adminDetail(id: number): Promise<Payment | null> {
      const row = await adminRows().where('payments.id', '=', id).executeTakeFirst();
      return row ? toAdminPayment(row) : null;
    },
  };
}
