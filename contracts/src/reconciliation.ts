import { z } from 'zod';
import { YookassaPayment, YookassaRefund } from './billing';

/** A page of YooKassa's `GET /v3/payments` or `GET /v3/refunds` list (`created_at.gte`, `cursor`). */
export const YookassaPaymentList = z.looseObject({
  type: z.literal('list'),
  items: z.array(YookassaPayment),
  next_cursor: z.string().optional(),
});
export const YookassaRefundList = z.looseObject({
  type: z.literal('list'),
  items: z.array(YookassaRefund),
  next_cursor: z.string().optional(),
});

/** A Stars transaction as the bot reads it from Telegram's `getStarTransactions`: a user's payment or its refund. */
export const StarTransaction = z.object({
  /** The charge id (Telegram's `telegram_payment_charge_id`; a refund has its payment's id). */
  id: z.string(),
  kind: z.enum(['payment', 'refund']),
  stars: z.int(),
  date: z.string(),
  telegram_user_id: z.int().nullable(),
});
export type StarTransaction = z.infer<typeof StarTransaction>;

/** The bot's `GET /internal/stars/transactions?since=` answer: Telegram's transactions since then. */
export const InternalStarTransactions = z.object({ transactions: z.array(StarTransaction) });
export type InternalStarTransactions = z.infer<typeof InternalStarTransactions>;
export const internalStarTransactionsPath = '/internal/stars/transactions';

export const ReconciliationSource = z.enum(['yookassa', 'telegram_stars']);
export type ReconciliationSource = z.infer<typeof ReconciliationSource>;

/**
 * One difference between billing's records and the provider's (docs/money.md, Reconciliation):
 * - `missing_credit`: paid there, not credited here (our payment is not succeeded);
 * - `unknown_payment`: paid there, and no payment of ours names it;
 * - `not_paid_there`: credited here, not paid (or unknown) there;
 * - `amount_differs`: both paid, for other amounts;
 * - `refund_missing_there`: refunded here, no refund there;
 * - `unknown_refund`: refunded there, not here.
 */
export const ReconciliationKind = z.enum([
  'missing_credit',
  'unknown_payment',
  'not_paid_there',
  'amount_differs',
  'refund_missing_there',
  'unknown_refund',
]);
export type ReconciliationKind = z.infer<typeof ReconciliationKind>;

export const RECONCILIATION_KIND_LABELS: Record<ReconciliationKind, string> = {
  missing_credit: 'Оплачен у провайдера, не зачислен у нас',
  unknown_payment: 'Оплачен у провайдера, у нас такого платежа нет',
  not_paid_there: 'Зачислен у нас, у провайдера не оплачен',
  amount_differs: 'Суммы различаются',
  refund_missing_there: 'Возвращён у нас, у провайдера возврата нет',
  unknown_refund: 'Возвращён у провайдера, у нас не возвращён',
};

export const ReconciliationDifference = z.object({
  source: ReconciliationSource,
  kind: ReconciliationKind,
  /** The provider's id (YooKassa's payment id, or the Stars charge id). */
  provider_id: z.string(),
  /** Our payment (its number), when there is one. */
  payment_id: z.int().nullable(),
  user_id: z.int().nullable(),
  /** Roubles (YooKassa) or stars (Telegram), as each side has it; null where a side has nothing. */
  ours: z.string().nullable(),
  theirs: z.string().nullable(),
});
export type ReconciliationDifference = z.infer<typeof ReconciliationDifference>;

export const ReconciliationReport = z
  .object({
    id: z.int(),
    started_at: z.string(),
    /** The records compared: created since then. */
    since: z.string(),
    sources: z.array(
      z.object({
        source: ReconciliationSource,
        /** The provider's records read; null when they could not be read (then `error` says why). */
        checked: z.int().nullable(),
        error: z.string().nullable(),
      }),
    ),
    differences: z.array(ReconciliationDifference),
  })
  .meta({ id: 'ReconciliationReport' });
export type ReconciliationReport = z.infer<typeof ReconciliationReport>;

/** `GET /api/admin/reconciliation`: the latest report (null before the first run); `POST` runs one now. */
export const AdminReconciliationResponse = z
  .object({ report: ReconciliationReport.nullable() })
  .meta({ id: 'AdminReconciliationResponse' });
export type AdminReconciliationResponse = z.infer<typeof AdminReconciliationResponse>;
