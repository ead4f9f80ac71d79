import type { YookassaPayment, YookassaRefund } from '@gpt/contracts';

/** What billing asks the payment provider to create (YooKassa API v3 terms). */
export interface ProviderPaymentRequest {
  /** Roubles with 2 decimals, sent as a string ("350.00"). */
  amount: string;
  description: string;
  returnUrl: string;
  metadata: Record<string, string>;
  receiptEmail: string;
  /** Derived from our payment id: a retry never creates a second payment. */
  idempotenceKey: string;
  /** «Продлевать автоматически»: save the card for autopayments (`save_payment_method`). */
  savePaymentMethod?: boolean;
  /** An autopayment: charge this saved method at once, with no confirmation page. */
  paymentMethodId?: string;
}

/** A refund of a whole payment (YooKassa API v3 terms). */
export interface ProviderRefundRequest {
  /** The provider's payment id. */
  paymentId: string;
  amount: string;
  description: string;
  /** Where the refund's receipt goes (54-FZ). */
  receiptEmail: string | null;
  /** Derived from our payment and the refund's try: a retry never refunds twice. */
  idempotenceKey: string;
}

/**
 * The payment provider as billing uses it: YooKassa's API, or the sandbox that stands in for it
 * when no keys are configured. Both answer with YooKassa's payment object.
 */
export interface PaymentProvider {
  readonly name: 'yookassa' | 'sandbox';
  create(request: ProviderPaymentRequest): Promise<YookassaPayment>;
  /** The provider's own view of a payment; null when it does not know the id. */
  get(id: string): Promise<YookassaPayment | null>;
  capture(id: string, amount: string, idempotenceKey: string): Promise<YookassaPayment>;
  refund(request: ProviderRefundRequest): Promise<YookassaRefund>;
  /**
   * The provider's own records created since `since`, for the reconciliation (docs/money.md): its payments,
   * and its refunds (null where the provider keeps none to list: the sandbox).
   */
  list(since: Date): Promise<{ payments: YookassaPayment[]; refunds: YookassaRefund[] | null }>;
}

/** The provider could not be reached or refused; `retryable` says whether asking again may help. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
