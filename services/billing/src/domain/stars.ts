import { randomUUID } from 'node:crypto';
import {
  DEFAULT_PAYMENT_SETTINGS,
  formatRoubles,
  isValidCostSetting,
  STAR_RATE_KEY,
  STAR_SUBSCRIPTION_MAX_STARS,
  STAR_SUBSCRIPTION_PERIOD,
  starsFor,
  toMinorUnits,
  TOP_UP_PACKAGES,
  type BotStarInvoiceRequest,
  type BotStarInvoiceResponse,
  type BotStarPaymentRequest,
  type BotStarPreCheckoutRequest,
  type BotStarPreCheckoutResponse,
  type UserPayment,
} from '@gpt/contracts';
import { AppError } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { paymentsRepository } from '../data/payments.repository';
import { settingsRepository } from '../data/settings.repository';
import { starInvoicesRepository, type StarInvoice } from '../data/star-invoices.repository';
import { tariffsRepository } from '../data/tariffs.repository';
import { usersRepository, type BillingUser } from '../data/users.repository';
import { paymentTarget, userPayment } from './create-payment';
import { creditPayment, paymentFact } from './settle-payment';
import { starSubscriptionPaid } from './subscriptions';
import { billingErrors } from './errors';

const STARS = 'XTR';

/** Roubles per star: the `star_rate_rub` setting as billing last heard it, its seeded default otherwise. */
async function starRate(deps: BillingDeps): Promise<string> {
  const stored = await settingsRepository(deps.db).find(STAR_RATE_KEY);
  return stored && isValidCostSetting(stored) ? stored : DEFAULT_PAYMENT_SETTINGS[STAR_RATE_KEY];
}

async function telegramUser(deps: BillingDeps, telegramId: number): Promise<BillingUser> {
  const user = await usersRepository(deps.db).findByTelegramId(telegramId);
  if (!user) throw billingErrors.userNotFound();
  return user;
}

/** What a top-up package or a tariff costs now, in roubles and in stars, and what it gives. */
async function quote(deps: BillingDeps, userId: number, target: { amount?: string; tariffId?: number }) {
  if (target.amount !== undefined && !(TOP_UP_PACKAGES as readonly string[]).includes(target.amount)) {
    throw billingErrors.packageNotOffered();
  }
  const priced = await paymentTarget(deps, { userId, ...target });
  return { ...priced, starAmount: starsFor(priced.amount, await starRate(deps)) };
}

const credits = (amount: number) => `${amount.toLocaleString('ru-RU')} кредитов`;

/** The invoice's Russian title and description: Telegram allows 32 and 255 characters. */
async function invoiceTexts(deps: BillingDeps, invoice: Omit<StarInvoice, 'id' | 'userId' | 'description'>) {
  if (invoice.kind === 'topup') {
    return {
      title: `Пополнение на ${credits(invoice.creditsAmount)}`.slice(0, 32),
      description: `+${credits(invoice.creditsAmount)} на баланс (${formatRoubles(invoice.amount)} по курсу звёзд)`,
      label: `Пополнение ${formatRoubles(invoice.amount)}`,
    };
  }
  const tariff = await tariffsRepository(deps.db).findById(invoice.tariffId as number);
  const name = tariff?.name ?? '';
  const images = tariff?.can_generate_images ? ', генерация изображений' : '';
  return {
    title: `Тариф «${name}» на месяц`.slice(0, 32),
    description: `Тариф «${name}» на 1 месяц: ${credits(invoice.creditsAmount)} сразу${images}`.slice(0, 255),
    label: `Тариф «${name}»`,
  };
}

/**
 * A Stars invoice of a top-up package or a paid tariff for a Telegram user: priced now and kept,
 * its id the invoice payload the bot sends, so pre-checkout and payment look the price up.
 */
export async function createStarInvoice(
  deps: BillingDeps,
  request: BotStarInvoiceRequest,
): Promise<BotStarInvoiceResponse> {
  const user = await telegramUser(deps, request.telegram_id);
  const priced = await quote(deps, user.id, { amount: request.amount, tariffId: request.tariff_id });
  const subscription = request.subscription === true;
  if (subscription && priced.starAmount > STAR_SUBSCRIPTION_MAX_STARS) {
    throw billingErrors.starSubscriptionTooDear(STAR_SUBSCRIPTION_MAX_STARS);
  }
  const invoice: StarInvoice = {
    id: randomUUID(),
    userId: user.id,
    kind: priced.kind,
    tariffId: priced.tariffId,
    amount: priced.amount,
    creditsAmount: priced.creditsAmount,
    starAmount: priced.starAmount,
    description: priced.description,
    subscription,
  };
  await starInvoicesRepository(deps.db).insert(invoice);
  return {
    payload: invoice.id,
    ...(await invoiceTexts(deps, invoice)),
    currency: STARS,
    star_amount: invoice.starAmount,
    amount: invoice.amount,
    kind: invoice.kind,
    credits_amount: invoice.creditsAmount,
    tariff_id: invoice.tariffId,
    subscription_period: subscription ? STAR_SUBSCRIPTION_PERIOD : null,
  };
}

/** The invoice the payload names, for this Telegram user, in stars at its price; null when any of it does not hold. */
async function invoiceOf(
  deps: BillingDeps,
  user: BillingUser,
  query: Pick<BotStarPreCheckoutRequest, 'invoice_payload' | 'currency' | 'total_amount'>,
): Promise<StarInvoice | null> {
  if (!/^[0-9a-f-]{36}$/.test(query.invoice_payload)) return null;
  const invoice = await starInvoicesRepository(deps.db).find(query.invoice_payload);
  if (!invoice || (await usersRepository(deps.db).resolve(invoice.userId)) !== user.id) return null;
  return query.currency === STARS && query.total_amount === invoice.starAmount ? invoice : null;
}

/**
 * Telegram's `pre_checkout_query`: the payload must name an invoice billing made for this user at
 * this price, no older than STAR_INVOICE_TTL_SEC, and billing must still sell the same thing for it:
 * the same price in roubles and in stars and the same credits (they depend on the payer's tariff now,
 * docs/money.md). Otherwise the answer is a decline with the reason in Russian, which the payer reads.
 */
export async function checkStarPreCheckout(
  deps: BillingDeps,
  query: BotStarPreCheckoutRequest,
): Promise<BotStarPreCheckoutResponse> {
  const decline = (error_message: string) => ({ ok: false, error_message });
  const user = await usersRepository(deps.db).findByTelegramId(query.telegram_id);
  if (!user) return decline('Пользователь не найден. Отправьте /start и попробуйте снова.');
  const invoice = await invoiceOf(deps, user, query);
  if (!invoice) return decline('Счёт не найден или изменён. Откройте /buy и выберите покупку заново.');
  const age = Date.now() - (invoice.createdAt?.getTime() ?? 0);
  if (age > deps.config.STAR_INVOICE_TTL_SEC * 1000) {
    return decline('Счёт устарел. Откройте /buy, чтобы получить новый счёт.');
  }
  let now;
  try {
    now = await quote(
      deps,
      user.id,
      invoice.kind === 'topup' ? { amount: invoice.amount } : { tariffId: invoice.tariffId as number },
    );
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return decline(`${err.message}. Откройте /buy заново.`);
    throw err;
  }
  const samePrice =
    toMinorUnits(now.amount, 2) === toMinorUnits(invoice.amount, 2) && now.starAmount === invoice.starAmount;
  if (!samePrice) return decline('Цена изменилась. Откройте /buy, чтобы получить новый счёт.');
  if (now.creditsAmount !== invoice.creditsAmount) {
    return decline(
      'Число кредитов за эту покупку изменилось (сменился тариф). Откройте /buy, чтобы получить новый счёт.',
    );
  }
  return { ok: true };
}

/**
 * Telegram's `successful_payment`: the stars are paid, so the invoice's quote is honoured. Recorded
 * as a succeeded `telegram_stars` payment, credited and announced once per charge id: a second
 * delivery (or one racing this) finds the charge id taken and answers the payment already recorded.
 */
export async function recordStarPayment(deps: BillingDeps, request: BotStarPaymentRequest): Promise<UserPayment> {
  const payments = paymentsRepository(deps.db);
  const known = await payments.findByChargeId(request.telegram_payment_charge_id);
  if (known) return userPayment(known);
  const user = await telegramUser(deps, request.telegram_id);
  const invoice = await invoiceOf(deps, user, request);
  if (!invoice) {
    deps.logger.error({ request }, 'a successful Stars payment names no invoice of ours at its price');
    throw billingErrors.starInvoiceNotFound();
  }
  const paymentId = randomUUID();
  const recorded = await deps.bus.transaction(async (trx) => {
    const payment = await paymentsRepository(trx).insertStars({
      paymentId,
      userId: user.id,
      kind: invoice.kind,
      tariffId: invoice.tariffId,
      amount: invoice.amount,
      creditsAmount: invoice.creditsAmount,
      starAmount: invoice.starAmount,
      description: invoice.description,
      telegramPaymentChargeId: request.telegram_payment_charge_id,
      metadata: {
        payment_id: paymentId,
        user_id: String(user.id),
        telegram_id: String(request.telegram_id),
        kind: invoice.kind,
        invoice_id: invoice.id,
        telegram_payment_charge_id: request.telegram_payment_charge_id,
        ...(request.provider_payment_charge_id
          ? { provider_payment_charge_id: request.provider_payment_charge_id }
          : {}),
      },
    });
    if (!payment) return null;
    // A subscription's payment (the first or a renewal): the tariff runs to the period's end Telegram names.
    const expiration = request.subscription_expiration_date;
    const renewing = invoice.subscription === true && request.is_recurring === true && expiration !== undefined;
    const periodEnd = renewing ? new Date(expiration * 1000) : undefined;
    const userId = await creditPayment(trx, deps, payment, periodEnd);
    if (periodEnd) await starSubscriptionPaid(trx, deps, { payment, userId, invoice, paidUntil: periodEnd });
    await deps.bus.publish(trx, 'payment.succeeded', {
      ...paymentFact(payment),
      yookassa_payment_id: null,
      telegram_payment_charge_id: request.telegram_payment_charge_id,
      credits_amount: payment.creditsAmount,
      succeeded_at: new Date().toISOString(),
    });
    return payment;
  });
  const payment = recorded ?? (await payments.findByChargeId(request.telegram_payment_charge_id));
  if (!payment) throw new Error(`Stars payment ${request.telegram_payment_charge_id} vanished`);
  return userPayment(payment);
}
