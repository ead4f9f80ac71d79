import type { BillingDeps } from '../deps';
import { paymentsRepository, type PaymentRecord } from '../data/payments.repository';
import { subscriptionsRepository } from '../data/subscriptions.repository';
import type { Providers } from '../provider';
import { ProviderError } from '../provider/provider';
import { failPayment, settleWith } from './settle-payment';
import {
  claimRenewal,
  endLapsedSubscriptions,
  renewalCharge,
  sendReminders,
  subscriptionSettings,
} from './subscriptions';

/**
 * Charges a card subscription's next period (docs/money.md, Subscriptions): the period's payment is claimed once
 * (`claimRenewal`), then YooKassa is asked to charge the saved card with the period's Idempotence-Key and a 54-FZ
 * receipt, and its answer settled like a notification — so the job, the webhook and an admin, however often and
 * however at once, make one charge, one extension and one grant. A provider that cannot be reached leaves the
 * payment pending: the next run asks again with the same key. Answers the payment, or null when nothing was due.
 */
export async function renewSubscription(
  deps: BillingDeps,
  providers: Providers,
  subscriptionId: number,
  options: { force: boolean; now?: Date },
): Promise<PaymentRecord | null> {
  const payment = await claimRenewal(deps, subscriptionId, options);
  if (!payment) return null;
  const { paymentMethodId, idempotenceKey } = await renewalCharge(deps.db, payment);
  if (paymentMethodId === null) return payment;
  try {
    const remote = await providers.provider.create({
      amount: payment.amount,
      description: payment.description,
      returnUrl: `${deps.config.SITE_URL}/dashboard`,
      metadata: payment.metadata ?? {},
      receiptEmail: payment.email as string,
      idempotenceKey,
      paymentMethodId,
    });
    await paymentsRepository(deps.db).markCreated(payment.id, remote.id, null);
    await settleWith(deps, providers, remote);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.logger.error({ err, paymentId: payment.paymentId }, 'the provider did not take the renewal charge');
    if (!err.retryable) await failPayment(deps, payment.id, `Платёжный сервис отказал: ${err.message}`.slice(0, 1000));
  }
  return paymentsRepository(deps.db).findByPaymentId(payment.paymentId);
}

/** The renewals job: due charges, reminders before them, and subscriptions nobody paid ended. Answers what it did. */
export async function runRenewals(deps: BillingDeps, providers: Providers, now = new Date()): Promise<number> {
  const settings = await subscriptionSettings(deps.db);
  const due = await subscriptionsRepository(deps.db).dueCharges(now, settings.renewal_lead_hours, 100);
  let done = 0;
  for (const id of due) {
    try {
      if (await renewSubscription(deps, providers, id, { force: false, now })) done++;
    } catch (err) {
      deps.logger.error({ err, subscriptionId: id }, 'a renewal failed; the next run retries');
    }
  }
  return done + (await sendReminders(deps, now)) + (await endLapsedSubscriptions(deps, now));
}
