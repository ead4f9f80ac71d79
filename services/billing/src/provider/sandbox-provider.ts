import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { YookassaPayment } from '@gpt/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { BillingDatabase, SandboxPaymentsTable } from '../data/schema';
import { ProviderError, type PaymentProvider } from './provider';

/** The sandbox's one test card, as YooKassa describes a card in `payment_method`. */
const sandboxCard = (row: Selectable<SandboxPaymentsTable>) => ({
  type: 'bank_card',
  id: row.payment_method_id as string,
  // Saved once the payment that saves it succeeded; a charge is of a saved card.
  saved: !row.save_payment_method || row.status === 'succeeded',
  title: 'Bank card *4444',
  card: { first6: '555555', last4: '4444', expiry_month: '12', expiry_year: '2030' },
});

/** The sandbox payment as its confirmation page shows it. */
export interface SandboxPaymentView {
  id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: string;
  description: string;
  returnUrl: string;
  /** Whose payment it is (the id billing gave the provider). */
  userId: string | null;
}

/**
 * The provider of the embedded default (no YooKassa keys): payments live in billing's own
 * database and are confirmed or canceled by the payer on a local page of the site
 * (`<SITE_URL>/payment/sandbox/<id>?key=<key>`); the answers have YooKassa's shape, so the rest of
 * billing cannot tell the difference. The key (an HMAC of the id under `secret`) is given only to the
 * payer, with the link, and is what lets the page decide the payment.
 */
export function sandboxProvider(db: Kysely<BillingDatabase>, siteUrl: string, secret: string) {
  const keyOf = (id: string) => createHmac('sha256', secret).update(`sandbox-payment:${id}`).digest('base64url');
  const confirmationUrl = (id: string) =>
    `${siteUrl}/payment/sandbox/${encodeURIComponent(id)}?key=${encodeURIComponent(keyOf(id))}`;
  const toPayment = (row: Selectable<SandboxPaymentsTable>): YookassaPayment => ({
    id: row.id,
    status: row.status,
    paid: row.status === 'succeeded',
    amount: { value: row.amount, currency: row.currency },
    description: row.description,
    metadata: row.metadata,
    confirmation: { type: 'redirect', confirmation_url: confirmationUrl(row.id) },
    ...(row.cancellation_reason
      ? { cancellation_details: { party: row.cancellation_party ?? 'merchant', reason: row.cancellation_reason } }
      : {}),
    ...(row.payment_method_id ? { payment_method: sandboxCard(row) } : {}),
    created_at: row.created_at.toISOString(),
    ...(row.captured_at ? { captured_at: row.captured_at.toISOString() } : {}),
    test: true,
  });
  const find = (id: string) => db.selectFrom('sandbox_payments').selectAll().where('id', '=', id).executeTakeFirst();
  /** A card a succeeded sandbox payment saved; a charge of any other is refused as YooKassa refuses it. */
  const savedMethod = async (methodId: string) => {
    const saving = await db
      .selectFrom('sandbox_payments')
      .select('id')
      .where('payment_method_id', '=', methodId)
      .where('save_payment_method', '=', true)
      .where('status', '=', 'succeeded')
      .executeTakeFirst();
    if (!saving) throw new ProviderError('payment_method_id is unknown', false);
    return methodId;
  };

  const provider: PaymentProvider = {
    name: 'sandbox',
    async create(request) {
      const id = randomUUID();
      const charged = request.paymentMethodId ? await savedMethod(request.paymentMethodId) : null;
      await db
        .insertInto('sandbox_payments')
        .values({
          id,
          idempotence_key: request.idempotenceKey,
          // An autopayment of a saved card succeeds at once; a payment that saves one keeps its own id as the method's.
          ...(charged
            ? { status: 'succeeded', payment_method_id: charged, captured_at: sql<Date>`now()` }
            : { status: 'pending', save_payment_method: request.savePaymentMethod ?? false }),
          ...(request.savePaymentMethod && !charged ? { payment_method_id: id } : {}),
          amount: request.amount,
          currency: 'RUB',
          description: request.description,
          metadata: JSON.stringify(request.metadata),
          return_url: request.returnUrl,
          receipt_email: request.receiptEmail,
        })
        .onConflict((oc) => oc.column('idempotence_key').doNothing())
        .execute();
      const row = await db
        .selectFrom('sandbox_payments')
        .selectAll()
        .where('idempotence_key', '=', request.idempotenceKey)
        .executeTakeFirstOrThrow();
      return toPayment(row);
    },
    async get(id) {
      const row = await find(id);
      return row ? toPayment(row) : null;
    },
    async capture(id) {
      const row = await find(id);
      if (!row) throw new Error(`sandbox payment ${id} does not exist`);
      return toPayment(row);
    },
    // The sandbox's payments are its records; it keeps no refunds to list.
    async list(since) {
      const rows = await db.selectFrom('sandbox_payments').selectAll().where('created_at', '>=', since).execute();
      return { payments: rows.map(toPayment), refunds: null };
    },
    // Nothing to give back in the sandbox: the refund succeeds, its id made of the key, so a retry is the same refund.
    async refund(request) {
      return {
        id: `sandbox-refund-${request.idempotenceKey}`,
        payment_id: request.paymentId,
        status: 'succeeded',
        amount: { value: request.amount, currency: 'RUB' },
        created_at: new Date().toISOString(),
      };
    },
  };

  return {
    provider,
    async view(id: string): Promise<SandboxPaymentView | null> {
      const row = await find(id);
      if (!row) return null;
      return {
        id: row.id,
        status: row.status,
        amount: row.amount,
        description: row.description,
        returnUrl: row.return_url,
        userId: row.metadata.user_id ?? null,
      };
    },
    /** Whether `key` is the one of this payment's confirmation link. */
    keyMatches(id: string, key: string | undefined): boolean {
      const given = Buffer.from(key ?? '');
      const expected = Buffer.from(keyOf(id));
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    /** Unpaid past its time: canceled as YooKassa cancels it, so its page no longer takes a decision. */
    async expire(id: string): Promise<void> {
      await db
        .updateTable('sandbox_payments')
        .set({ status: 'canceled', cancellation_party: 'merchant', cancellation_reason: 'expired_on_confirmation' })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },
    /** The payer's decision on the sandbox page; only a pending payment can still be decided. */
    async decide(id: string, decision: 'succeeded' | 'canceled'): Promise<boolean> {
      const result = await db
        .updateTable('sandbox_payments')
        .set(
          decision === 'succeeded'
            ? { status: 'succeeded', captured_at: sql<Date>`now()` }
            : { status: 'canceled', cancellation_party: 'yoo_money', cancellation_reason: 'canceled_by_merchant' },
        )
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type SandboxProvider = ReturnType<typeof sandboxProvider>;
