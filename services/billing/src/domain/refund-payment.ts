import type { RefundPaymentResponse } from '@gpt/contracts';
import { type AdminAction, recordAudit, SYSTEM_ACTOR } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import { availableCredits, type Balance } from '../data/balances.repository';
import { paymentsRepository, type LockedPayment } from '../data/payments.repository';
import type { BillingDatabase } from '../data/schema';
import { tariffsRepository } from '../data/tariffs.repository';
import { usersRepository } from '../data/users.repository';
import type { Providers } from '../provider';
import { ProviderError } from '../provider/provider';
import { changeBalance, type BalanceChange } from './ledger';
import { paymentFact } from './settle-payment';
import { purchasedPeriod, refundedPeriod } from './tariff-period';
import { billingErrors } from './errors';

/** Who refunds: the admin whose token billing forwards to the bot for a Stars refund, and why. */
export interface Refunder {
  adminId: number;
  token: string;
  reason: string | null;
}

type Trx = Kysely<BillingDatabase>;

/**
 * An admin's refund of a succeeded payment, card or Stars. In order, so that the money and the
 * ledger never disagree and nothing happens twice:
 * 1. locked, the payment's credits (or tariff and its included credits) are taken back as the
 *    entry «Возврат платежа N» and the refund is marked under way — refused, with how many credits
 *    are missing, when the user has spent part of them;
 * 2. the provider returns the money (YooKassa with the Idempotence-Key of this try: the action id of the
 *    admin's key that started it, kept on the payment; Telegram's
 *    `refundStarPayment` through the bot), outside any transaction;
 * 3. locked again, the payment becomes `refunded` and `payment.refunded` is published, once.
 * A second click, or a retry after a timeout, finds the refund under way and repeats only step 2
 * (the same refund for the provider) and step 3; a refund already done is answered as it is. A
 * provider that refuses for good gives the credits back and leaves the payment succeeded. The audit log has
 * the admin's entry in step 1's transaction (`payment.refund`, started) and the system's in step 3's
 * (`payment.refunded`) or in the giving back (`payment.refund_reverted`); the answer is kept with the admin's
 * key in step 3's transaction.
 */
export async function refundPayment(
  deps: BillingDeps,
  providers: Providers,
  refunder: Refunder,
  id: number,
  action: AdminAction,
): Promise<RefundPaymentResponse> {
  const started = await deps.bus.transaction(async (trx) => {
    const payment = await paymentsRepository(trx).lockWithPayer(id);
    if (!payment) throw billingErrors.paymentNotFound();
    if (payment.status === 'refunded') return null;
    if (payment.status !== 'succeeded') throw billingErrors.refundNotAllowed();
    if (payment.refundStartedAt !== null) {
      // A try started before refund keys were kept on the payment has the key it was given then.
      return {
        payment,
        attempt: payment.refundAttempt,
        key: payment.refundKey ?? `refund-${payment.paymentId}-${payment.refundAttempt}`,
      };
    }
    const attempt = await paymentsRepository(trx).startRefund(payment.id, action.actionId);
    await takeBack(trx, deps.bus, payment, attempt, refunder.adminId);
    await action.record(trx, {
      action: 'payment.refund',
      target: paymentTarget(payment),
      before: { status: payment.status, amount: payment.amount, credits: payment.creditsAmount },
      after: { status: 'refund_started', attempt },
      reason: refunder.reason,
      outcome: 'started',
    });
    return { payment, attempt, key: action.actionId };
  });
  if (started) {
    const refundId = await returnMoney(deps, providers, refunder, started);
    return finish(deps, started.payment.id, refundId, action);
  }
  return refundAnswer(deps.db, id);
}

async function refundAnswer(db: Trx, id: number): Promise<RefundPaymentResponse> {
  const refunded = await paymentsRepository(db).adminDetail(id);
  if (!refunded) throw billingErrors.paymentNotFound();
  return { success: true, payment: refunded };
}

const paymentTarget = (payment: { id: number; userId: number }) => ({
  type: 'payment',
  id: payment.id,
  userId: payment.userId,
});

/** The account holding the payer's money now (a merged account's survivor). */
async function holderOf(trx: Trx, payment: LockedPayment): Promise<number> {
  return payment.userMergedInto === null ? payment.userId : usersRepository(trx).resolve(payment.userMergedInto);
}

/** Step 1: exactly what the payment gave comes off the balance, never taking it below zero. */
async function takeBack(
  trx: Trx,
  bus: BillingDeps['bus'],
  payment: LockedPayment,
  attempt: number,
  adminId: number,
): Promise<void> {
  const defaultTariff = await tariffsRepository(trx).findDefault();
  const now = new Date();
  await changeBalance(trx, bus, await holderOf(trx, payment), `refund:${payment.id}:${attempt}`, (balance) => {
    const missing = payment.creditsAmount - takeable(balance, payment.kind === 'topup' ? 'credits' : 'included');
    if (missing > 0) throw billingErrors.refundSpent(missing);
    const common: Omit<BalanceChange, 'postings'> = {
      reason: 'payment_refund',
      depositedDelta: `-${payment.amount}`,
      paymentId: payment.id,
      adminId,
      description: `Возврат платежа ${payment.id}`,
    };
    if (payment.kind === 'topup') {
      return { ...common, postings: [{ bucket: 'credits', amount: -payment.creditsAmount }] };
    }
    return {
      ...common,
      ...refundedPeriod(balance, payment.tariffId as number, payment.creditsAmount, defaultTariff.id, now),
    };
  });
}

/** What can still be taken from a bucket: what it holds, and no more than is available beside the holds. */
function takeable(balance: Balance, bucket: 'credits' | 'included'): number {
  const held = bucket === 'credits' ? balance.credits : balance.includedCredits;
  return Math.max(0, Math.min(held, availableCredits(balance)));
}

/** Step 2: the provider gives the money back; answers the refund's id. */
async function returnMoney(
  deps: BillingDeps,
  providers: Providers,
  refunder: Refunder,
  { payment, attempt, key }: { payment: LockedPayment; attempt: number; key: string },
): Promise<string> {
  try {
    if (payment.provider === 'telegram_stars') {
      const chargeId = payment.telegramPaymentChargeId as string;
      const telegramId = Number(payment.metadata?.telegram_id);
      await providers.stars.refund({ telegram_id: telegramId, telegram_payment_charge_id: chargeId }, refunder.token);
      return chargeId;
    }
    if (payment.yookassaPaymentId === null) throw new ProviderError('the payment has no YooKassa id', false);
    const refund = await providers.provider.refund({
      paymentId: payment.yookassaPaymentId,
      amount: payment.amount,
      description: `Возврат платежа ${payment.id}: ${payment.description}`,
      receiptEmail: payment.email,
      idempotenceKey: key,
    });
    if (refund.status === 'succeeded') return refund.id;
    if (refund.status === 'pending') throw new ProviderError('the refund is still pending', true);
    throw new ProviderError(refund.cancellation_details?.reason ?? 'the refund was canceled', false);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.logger.error({ err, paymentId: payment.paymentId, attempt }, 'the refund did not go through');
    if (err.retryable) throw billingErrors.providerUnavailable();
    await abandon(deps, payment.id, attempt);
    throw billingErrors.refundRefused(err.message);
  }
}

/** The provider refused for good: the credits taken back in this try go back, the payment stays succeeded. */
async function abandon(deps: BillingDeps, id: number, attempt: number): Promise<void> {
  await deps.bus.transaction(async (trx) => {
    const payment = await paymentsRepository(trx).lockWithPayer(id);
    if (!payment || payment.refundStartedAt === null || payment.refundAttempt !== attempt) return;
    await paymentsRepository(trx).abandonRefund(id);
    await changeBalance(trx, deps.bus, await holderOf(trx, payment), `refund-reverted:${id}:${attempt}`, (balance) => ({
      reason: 'payment_refund_reverted',
      depositedDelta: payment.amount,
      paymentId: id,
      description: `Возврат платежа ${id} не прошёл`,
      ...(payment.kind === 'topup'
        ? { postings: [{ bucket: 'credits', amount: payment.creditsAmount }] }
        : purchasedPeriod(balance, { id: payment.tariffId as number }, payment.creditsAmount, new Date())),
    }));
    await recordAudit(trx, SYSTEM_ACTOR, {
      action: 'payment.refund_reverted',
      target: paymentTarget(payment),
      before: { status: 'refund_started', attempt },
      after: { status: payment.status },
      outcome: 'refused',
    });
  });
}

/** Step 3: the payment is refunded and `payment.refunded` is published, once however many clicks got here. */
async function finish(
  deps: BillingDeps,
  id: number,
  refundId: string,
  action: AdminAction,
): Promise<RefundPaymentResponse> {
  return deps.bus.transaction(async (trx) => {
    const payment = await paymentsRepository(trx).lock(id);
    if (payment && payment.status !== 'refunded') {
      await paymentsRepository(trx).markRefunded(id, refundId);
      await deps.bus.publish(trx, 'payment.refunded', {
        ...paymentFact(payment),
        credits_amount: payment.creditsAmount,
        refund_id: refundId,
        refunded_at: new Date().toISOString(),
      });
      await recordAudit(trx, SYSTEM_ACTOR, {
        action: 'payment.refunded',
        target: paymentTarget(payment),
        before: { status: payment.status },
        after: { status: 'refunded', refund_id: refundId },
      });
    }
    return action.keep(trx, await refundAnswer(trx, id));
  });
}
