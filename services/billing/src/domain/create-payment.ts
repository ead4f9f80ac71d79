import { randomUUID } from 'node:crypto';
import {
  creditsForTopUp,
  formatRoubles,
  toMinorUnits,
  type CreatePaymentResponse,
  type PaymentKind,
  type UserPayment,
} from '@gpt/contracts';
import type { Transaction } from 'kysely';
import type { BillingDeps } from '../deps';
import { paymentsRepository, type PaymentRecord } from '../data/payments.repository';
import type { BillingDatabase } from '../data/schema';
import { tariffsRepository } from '../data/tariffs.repository';
import type { BillingUser } from '../data/users.repository';
import type { Providers } from '../provider';
import { ProviderError } from '../provider/provider';
import { readBalance } from './balances';
import { failPayment } from './settle-payment';
import { billingErrors } from './errors';
import { knownUser } from './known-users';
import { consentToRecord } from './subscriptions';
import { subscriptionsRepository } from '../data/subscriptions.repository';

export interface CreatePaymentCommand {
  userId: number;
  source: 'web' | 'bot';
  /** Top-up in roubles ("350.00") … */
  amount?: string;
  /** … or a tariff to buy for one month. */
  tariffId?: number;
  /** Receipt e-mail given with the request (the bot asks the user). */
  email?: string;
  /** The payer's own bearer token, to read them through from auth when billing has not seen them yet. */
  authorization?: string;
  /** «Продлевать автоматически» ticked, under the consent text of this version (docs/money.md, Subscriptions). */
  autoRenew?: boolean;
  consentVersion?: string;
}

/**
 * A top-up or a tariff purchase: our payment row first (`pending_email` when there is no
 * receipt e-mail yet), then the provider's payment, whose confirmation page the payer goes to.
 */
export async function createPayment(
  deps: BillingDeps,
  providers: Providers,
  command: CreatePaymentCommand,
): Promise<CreatePaymentResponse> {
  const user = await knownUser(deps, { id: command.userId, authorization: command.authorization });
  if (!user) throw billingErrors.userNotReady();
  if (user.deleted || user.mergedInto !== null) throw billingErrors.userNotFound();
  const target = await paymentTarget(deps, command);
  const consent =
    command.autoRenew && target.tariffId !== null
      ? await consentToRecord(deps, user.id, target.tariffId, command.consentVersion)
      : null;
  // The e-mail given for the last payment covers the moment before auth passes it back as the user's own.
  const email = command.email ?? receiptEmailOf(user) ?? (await paymentsRepository(deps.db).lastEmailOf(user.id));
  const paymentId = randomUUID();
  const payment = await deps.bus.transaction(async (trx) => {
    if (consent) {
      await subscriptionsRepository(trx).insertConsent({
        user_id: user.id,
        tariff_id: target.tariffId as number,
        payment_id: paymentId,
        version: consent.version,
        text: consent.text,
        source: command.source,
      });
    }
    const inserted = await paymentsRepository(trx).insert({
      paymentId,
      userId: user.id,
      ...target,
      status: email ? 'pending' : 'pending_email',
      email,
      source: command.source,
      autoRenew: consent !== null,
      metadata: {
        payment_id: paymentId,
        user_id: String(user.id),
        kind: target.kind,
        ...(target.tariffId === null ? {} : { tariff_id: String(target.tariffId) }),
      },
    });
    if (command.email !== undefined && command.email !== user.telegramEmail) {
      await publishReceiptEmail(deps, trx, inserted);
    }
    return inserted;
  });
  return payment.status === 'pending' ? submitToProvider(deps, providers, payment) : responseOf(payment);
}

/** `PATCH /api/bot/payments/:id/email`: the missing receipt e-mail arrives; the payment goes to the provider. */
export async function supplyReceiptEmail(
  deps: BillingDeps,
  providers: Providers,
  paymentId: string,
  email: string,
): Promise<CreatePaymentResponse> {
  const payment = await paymentsRepository(deps.db).findByPaymentId(paymentId);
  if (!payment) throw billingErrors.paymentNotFound();
  const supplied = { ...payment, email, status: 'pending' as const };
  await deps.bus.transaction(async (trx) => {
    if (!(await paymentsRepository(trx).supplyEmail(payment.id, email))) {
      throw billingErrors.paymentNotWaitingForEmail();
    }
    await publishReceiptEmail(deps, trx, supplied);
  });
  return submitToProvider(deps, providers, supplied);
}

/** Auth keeps the e-mail as the user's receipt address, so the bot does not have to ask again. */
async function publishReceiptEmail(deps: BillingDeps, trx: Transaction<BillingDatabase>, payment: PaymentRecord) {
  await deps.bus.publish(trx, 'receipt_email.supplied', {
    user_id: payment.userId,
    email: payment.email as string,
    payment_id: payment.paymentId,
    supplied_at: new Date().toISOString(),
  });
}

/** What a payment buys and costs: a paid, active tariff for a month, or a top-up at the payer's tariff's credits per rouble. */
export async function paymentTarget(
  deps: BillingDeps,
  command: Pick<CreatePaymentCommand, 'userId' | 'amount' | 'tariffId'>,
) {
  if (command.tariffId !== undefined) {
    const tariff = await tariffsRepository(deps.db).findById(command.tariffId);
    if (!tariff) throw billingErrors.tariffNotFound();
    if (!tariff.is_active) throw billingErrors.tariffInactive();
    if (toMinorUnits(tariff.monthly_price, 2) === 0n) {
      throw billingErrors.tariffFree();
    }
    return {
      kind: 'tariff' as PaymentKind,
      tariffId: tariff.id,
      amount: tariff.monthly_price,
      creditsAmount: tariff.included_credits,
      description: `Тариф «${tariff.name}» на 1 месяц`,
    };
  }
  const amount = command.amount as string;
  const balance = await readBalance(deps, command.userId);
  return {
    kind: 'topup' as PaymentKind,
    tariffId: null,
    amount,
    creditsAmount: creditsForTopUp(amount, balance.tariff.creditsPerRuble),
    description: `Пополнение баланса на ${formatRoubles(amount)}`,
  };
}

/** The receipt goes to the e-mail given for receipts, else to the account's e-mail. */
function receiptEmailOf(user: BillingUser): string | null {
  return user.telegramEmail ?? user.email;
}

async function submitToProvider(
  deps: BillingDeps,
  providers: Providers,
  payment: PaymentRecord,
): Promise<CreatePaymentResponse> {
  try {
    const remote = await providers.provider.create({
      amount: payment.amount,
      description: payment.description,
      returnUrl: `${deps.config.SITE_URL}/payment/result?payment_id=${encodeURIComponent(payment.paymentId)}`,
      metadata: payment.metadata ?? {},
      receiptEmail: payment.email as string,
      idempotenceKey: payment.paymentId,
      savePaymentMethod: payment.autoRenew,
    });
    const created = await paymentsRepository(deps.db).markCreated(
      payment.id,
      remote.id,
      remote.confirmation?.confirmation_url ?? null,
    );
    return responseOf(created);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.logger.error({ err, paymentId: payment.paymentId }, 'the provider did not create the payment');
    await failPayment(deps, payment.id, `Платёжный сервис не создал платёж: ${err.message}`.slice(0, 1000));
    throw billingErrors.providerFailed();
  }
}

/** What the payer is told of a payment, wherever they see it. */
export const payerView = (payment: PaymentRecord) => ({
  payment_id: payment.paymentId,
  status: payment.status,
  kind: payment.kind,
  amount: payment.amount,
  credits_amount: payment.creditsAmount,
  tariff_id: payment.tariffId,
  description: payment.description,
});

/** A payment as its payer reads it in their history (`GET /api/billing/payments`). */
export const userPayment = (payment: PaymentRecord): UserPayment => ({
  ...payerView(payment),
  email: payment.email,
  cancellation_reason: payment.cancellationReason,
  provider: payment.provider,
  star_amount: payment.starAmount,
  created_at: payment.createdAt.toISOString(),
  updated_at: payment.updatedAt.toISOString(),
});

function responseOf(payment: PaymentRecord): CreatePaymentResponse {
  return { ...payerView(payment), confirmation_url: payment.confirmationUrl };
}
