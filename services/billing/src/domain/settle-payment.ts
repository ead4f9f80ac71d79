import { PAYMENT_EMAIL_NOT_GIVEN, toMinorUnits, type YookassaNotification, type YookassaPayment } from '@gpt/contracts';
import { recordAudit, SYSTEM_ACTOR } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import { paymentsRepository, type LockedPayment, type PaymentRecord } from '../data/payments.repository';
import type { BillingDatabase } from '../data/schema';
import { tariffsRepository } from '../data/tariffs.repository';
import { usersRepository } from '../data/users.repository';
import type { Providers } from '../provider';
import { ProviderError } from '../provider/provider';
import { changeBalance } from './ledger';
import { purchasedPeriod } from './tariff-period';
import { billingErrors } from './errors';
import { followPurchase, markRenewed, renewalCredit, renewalDeclined, startCardSubscription } from './subscriptions';

/** What a notification or a reconciliation did to our payment. */
export type SettleOutcome = 'succeeded' | 'canceled' | 'unchanged' | 'duplicate' | 'not_ours';

/**
 * A provider notification: only its payment id is used. The payment is re-fetched from the
 * provider's API and only that answer is believed; a payment the provider does not know, or one
 * that does not match ours (amount, currency, ids), changes nothing.
 */
export async function handleNotification(
  deps: BillingDeps,
  providers: Providers,
  notification: YookassaNotification,
): Promise<SettleOutcome> {
  const remote = await fetchRemote(providers, notification.object.id);
  if (!remote) {
    deps.logger.warn({ id: notification.object.id }, 'notification about a payment the provider does not know');
    throw billingErrors.unknownPayment();
  }
  return settleWith(deps, providers, remote);
}

/** The reconciliation job: payments left pending for too long are re-fetched and settled the same way. */
export async function reconcilePendingPayments(deps: BillingDeps, providers: Providers): Promise<number> {
  const before = new Date(Date.now() - deps.config.PAYMENT_RECONCILE_AFTER_SEC * 1000);
  const pending = await paymentsRepository(deps.db).pendingBefore(before, 100);
  let settled = 0;
  for (const payment of pending) {
    try {
      if (payment.yookassaPaymentId === null) {
        await failPayment(deps, payment.id, 'Платёж не был создан у платёжного сервиса');
        settled++;
        continue;
      }
      const remote = await fetchRemote(providers, payment.yookassaPaymentId);
      if (!remote) {
        await failPayment(deps, payment.id, 'Платёжный сервис не знает этот платёж');
        settled++;
      } else if (['succeeded', 'canceled'].includes(await settleWith(deps, providers, remote))) settled++;
    } catch (err) {
      deps.logger.error(
        { err, paymentId: payment.paymentId },
        'reconciliation of a payment failed; next round retries',
      );
    }
  }
  return settled;
}

/** YooKassa's own reason for a payment the payer never confirmed in time. */
const EXPIRED = { party: 'merchant', reason: 'expired_on_confirmation' };

/**
 * Card payments not paid within CARD_PAYMENT_TTL_SEC end (docs/security.md, Prices hold until paid): each is
 * re-fetched first, so one paid meanwhile is credited as recorded at its making; the sandbox provider's page no
 * longer takes it; one the provider still shows unpaid is canceled here with YooKassa's reason
 * `expired_on_confirmation`. Should the provider report it paid later all the same, the money is in: it is credited
 * as recorded. Renewals are charged without the payer and never wait. Answers how many ended.
 */
export async function expireCardPayments(deps: BillingDeps, providers: Providers, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - deps.config.CARD_PAYMENT_TTL_SEC * 1000);
  const stale = await paymentsRepository(deps.db).pendingBefore(before, 100);
  let ended = 0;
  for (const payment of stale) {
    const remoteId = payment.yookassaPaymentId;
    if (payment.provider !== 'yookassa' || payment.subscriptionId !== null || remoteId === null) continue;
    try {
      await providers.sandbox?.expire(remoteId);
      const remote = await fetchRemote(providers, remoteId);
      const outcome = remote ? await settleWith(deps, providers, remote) : 'unchanged';
      if (outcome === 'unchanged') await expireOurs(deps, payment.id);
      ended++;
    } catch (err) {
      deps.logger.error(
        { err, paymentId: payment.paymentId },
        'expiry of an unpaid card payment failed; next round retries',
      );
    }
  }
  return ended;
}

async function expireOurs(deps: BillingDeps, id: number): Promise<void> {
  await deps.bus.transaction(async (trx) => {
    const payment = await paymentsRepository(trx).lock(id);
    if (payment?.status === 'pending') await markCanceled(trx, deps, payment, EXPIRED);
  });
}

/** Our errors: the payment becomes `failed` (unless it already reached a final state) and `payment.failed` is published. */
export async function failPayment(deps: BillingDeps, id: number, reason: string): Promise<void> {
  await deps.bus.transaction(async (trx) => {
    const payments = paymentsRepository(trx);
    const payment = await payments.lock(id);
    if (!payment || !['pending', 'pending_email'].includes(payment.status)) return;
    await payments.markFailed(id, reason);
    await deps.bus.publish(trx, 'payment.failed', {
      ...paymentFact(payment),
      reason,
      failed_at: new Date().toISOString(),
    });
    // A renewal YooKassa never charged counts as a declined try: it is retried on the same schedule.
    if (payment.subscriptionId !== null) await renewalDeclined(trx, deps, payment, 'provider_error');
  });
}

async function fetchRemote(providers: Providers, id: string): Promise<YookassaPayment | null> {
  try {
    return await providers.provider.get(id);
  } catch (err) {
    if (err instanceof ProviderError) {
      throw billingErrors.providerUnavailable();
    }
    throw err;
  }
}

/** Settles our payment with what the provider says of it (a notification's re-fetch, a renewal's answer). */
export async function settleWith(
  deps: BillingDeps,
  providers: Providers,
  fetched: YookassaPayment,
): Promise<SettleOutcome> {
  let remote = fetched;
  if (remote.status === 'waiting_for_capture') {
    const payment = await paymentsRepository(deps.db).findByPaymentId(remote.metadata?.payment_id ?? '');
    if (!payment) return notOurs(deps, remote);
    assertMatches(deps, payment, remote);
    remote = await providers.provider.capture(remote.id, payment.amount, `capture-${payment.paymentId}`);
  }
  if (remote.status === 'succeeded' && remote.paid) return withOurPayment(deps, remote, succeed);
  if (remote.status === 'canceled') return withOurPayment(deps, remote, cancel);
  return 'unchanged';
}

type Settle = (
  trx: Kysely<BillingDatabase>,
  deps: BillingDeps,
  payment: LockedPayment,
  remote: YookassaPayment,
) => Promise<SettleOutcome>;

/**
 * Locks our payment that the provider's metadata names, checks that it is the provider's payment,
 * and settles it, all in one transaction: concurrent notifications of one payment queue on the lock.
 */
function withOurPayment(deps: BillingDeps, remote: YookassaPayment, settle: Settle): Promise<SettleOutcome> {
  return deps.bus.transaction(async (trx) => {
    const payment = await paymentsRepository(trx).lockByPaymentId(remote.metadata?.payment_id ?? '');
    if (!payment) return notOurs(deps, remote);
    assertMatches(deps, payment, remote);
    return settle(trx, deps, payment, remote);
  });
}

function notOurs(deps: BillingDeps, remote: YookassaPayment): SettleOutcome {
  deps.logger.info({ id: remote.id }, 'the provider payment is not one of ours; ignored');
  return 'not_ours';
}

/** The provider's payment must be the one we created: same ids, same amount to the kopeck, roubles. */
function assertMatches(deps: BillingDeps, payment: PaymentRecord, remote: YookassaPayment): void {
  const problems: string[] = [];
  if (payment.yookassaPaymentId !== null && payment.yookassaPaymentId !== remote.id) problems.push('provider id');
  if (remote.amount.currency !== payment.currency) problems.push('currency');
  if (toMinorUnits(remote.amount.value, 2) !== toMinorUnits(payment.amount, 2)) problems.push('amount');
  if (remote.metadata?.user_id !== payment.metadata?.user_id) problems.push('user');
  if (problems.length === 0) return;
  deps.logger.warn(
    { paymentId: payment.paymentId, remoteId: remote.id, problems },
    'provider payment does not match ours; nothing changed',
  );
  throw billingErrors.paymentMismatch();
}

/** Credits exactly once: a payment that already succeeded is a duplicate; a final status is never left. */
const succeed: Settle = async (trx, deps, payment, remote) => {
  if (payment.status === 'succeeded') return 'duplicate';
  const userId = await creditPayment(trx, deps, payment);
  if (payment.autoRenew) await startCardSubscription(trx, deps, payment, userId, remote);
  await paymentsRepository(trx).markSucceeded(payment.id, remote.id);
  await deps.bus.publish(trx, 'payment.succeeded', {
    ...paymentFact(payment),
    yookassa_payment_id: remote.id,
    credits_amount: payment.creditsAmount,
    succeeded_at: new Date().toISOString(),
  });
  return 'succeeded';
};

/**
 * Top-up: its credits; tariff: a month of it with its included credits (a card subscription's renewal: the month after
 * its paid end, once per period; a Stars subscription's payment: until `periodEnd`, the end Telegram names). Either way the money counts as deposited, and the audit log has the system's entry of it
 * (a card payment YooKassa confirmed, or Stars Telegram took), written last, as every entry is, so the chain's lock is
 * never held while waiting for a balance. Answers the user credited.
 */
export async function creditPayment(
  trx: Kysely<BillingDatabase>,
  deps: BillingDeps,
  payment: LockedPayment,
  periodEnd?: Date,
): Promise<number> {
  const { bus } = deps;
  // The payer's account may have been merged into another since: the survivor is credited.
  const userId =
    payment.userMergedInto === null ? payment.userId : await usersRepository(trx).resolve(payment.userMergedInto);
  const common = { depositedDelta: payment.amount, paymentId: payment.id };
  const now = new Date();
  if (payment.kind === 'topup') {
    await changeBalance(trx, bus, userId, `payment:${payment.id}`, () => ({
      ...common,
      reason: 'payment',
      postings: [{ bucket: 'credits', amount: payment.creditsAmount }],
    }));
  } else if (payment.subscriptionId !== null) {
    const renewal = await renewalCredit(trx, payment);
    const credited = await changeBalance(trx, bus, userId, renewal.reference, (balance) => ({
      ...common,
      reason: 'tariff_purchase',
      ...renewal.change(balance, now),
    }));
    if (credited) {
      const end = credited.tariff.id === renewal.subscription.tariff_id ? credited.tariff.end_date : null;
      await markRenewed(trx, deps, renewal.subscription, payment, end === null ? null : new Date(end));
    }
  } else {
    const tariff = await tariffsRepository(trx).findById(payment.tariffId as number);
    // Deleting a tariff that payments name is refused, so it is there.
    if (!tariff) throw new Error(`tariff ${payment.tariffId} of payment ${payment.id} is gone`);
    const credited = await changeBalance(trx, bus, userId, `tariff:${payment.id}`, (balance) => ({
      ...common,
      reason: 'tariff_purchase',
      ...purchasedPeriod(balance, tariff, payment.creditsAmount, now, periodEnd && (() => periodEnd)),
    }));
    if (credited?.tariff.id === tariff.id && credited.tariff.end_date && !payment.autoRenew) {
      await followPurchase(trx, userId, tariff.id, new Date(credited.tariff.end_date));
    }
  }
  await recordAudit(trx, SYSTEM_ACTOR, {
    action: 'payment.succeeded',
    target: { type: 'payment', id: payment.id, userId },
    after: {
      provider: payment.provider,
      kind: payment.kind,
      amount: payment.amount,
      star_amount: payment.starAmount,
      credits: payment.creditsAmount,
      ...(payment.subscriptionId === null ? {} : { subscription_id: payment.subscriptionId }),
    },
  });
  return userId;
}

/** The payment is canceled for `reason` and `payment.canceled` says so. */
async function markCanceled(
  trx: Kysely<BillingDatabase>,
  deps: BillingDeps,
  payment: PaymentRecord,
  cancellation: { party: string | null; reason: string | null },
): Promise<void> {
  await paymentsRepository(trx).markCanceled(payment.id, cancellation.party, cancellation.reason);
  await deps.bus.publish(trx, 'payment.canceled', {
    ...paymentFact(payment),
    ...cancellation,
    canceled_at: new Date().toISOString(),
  });
}

const cancel: Settle = async (trx, deps, payment, remote) => {
  if (payment.status === 'succeeded' || payment.status === 'canceled') return 'duplicate';
  await markCanceled(
    trx,
    deps,
    { ...payment, yookassaPaymentId: remote.id },
    {
      party: remote.cancellation_details?.party ?? null,
      reason: remote.cancellation_details?.reason ?? null,
    },
  );
  if (payment.subscriptionId !== null) {
    await renewalDeclined(trx, deps, payment, remote.cancellation_details?.reason ?? null);
  }
  return 'canceled';
};

/**
 * The e-mail wait job: a bot payment that has waited `PAYMENT_EMAIL_WAIT_SEC` for its receipt e-mail
 * is canceled (reason `email_not_given`), so /paysupport shows it ended and the bot stops waiting.
 */
export async function expireEmailWaits(deps: BillingDeps, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - deps.config.PAYMENT_EMAIL_WAIT_SEC * 1000);
  const waiting = await paymentsRepository(deps.db).pendingBefore(before, 100, 'pending_email');
  let canceled = 0;
  for (const { id } of waiting) {
    await deps.bus.transaction(async (trx) => {
      const payment = await paymentsRepository(trx).lock(id);
      if (payment?.status !== 'pending_email') return;
      await markCanceled(trx, deps, payment, { party: 'merchant', reason: PAYMENT_EMAIL_NOT_GIVEN });
      canceled++;
    });
  }
  return canceled;
}

/** What every payment event says of its payment. */
export function paymentFact(payment: PaymentRecord) {
  return {
    payment_id: payment.paymentId,
    yookassa_payment_id: payment.yookassaPaymentId,
    user_id: payment.userId,
    kind: payment.kind,
    tariff_id: payment.tariffId,
    amount: payment.amount,
    currency: payment.currency,
    provider: payment.provider,
    star_amount: payment.starAmount,
    subscription_id: payment.subscriptionId,
  };
}
