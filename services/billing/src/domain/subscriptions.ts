import { randomUUID } from 'node:crypto';
import {
  DEFAULT_SUBSCRIPTION_SETTINGS,
  parseSubscriptionSetting,
  RENEWAL_CONSENT_VERSION,
  renewalConsentText,
  type AdminSubscription,
  type RenewalConsentResponse,
  type SubscriptionNoticeKind,
  type SubscriptionSettingKey,
  type SubscriptionSettings,
  type SubscriptionStats,
  type UserSubscription,
  type YookassaPayment,
} from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import { balancesRepository, type Balance } from '../data/balances.repository';
import { paymentsRepository, type PaymentRecord } from '../data/payments.repository';
import type { BillingDatabase } from '../data/schema';
import { settingsRepository } from '../data/settings.repository';
import { subscriptionsRepository, type SubscriptionRow } from '../data/subscriptions.repository';
import { tariffsRepository, type Tariff } from '../data/tariffs.repository';
import { usersRepository } from '../data/users.repository';
import type { Providers } from '../provider';
import { ProviderError } from '../provider/provider';
import { billingErrors } from './errors';
import { readBalance } from './balances';
import { addDays, addOneMonth, purchasedPeriod } from './tariff-period';
import type { BalanceChange } from './ledger';

type Db = Kysely<BillingDatabase>;

/** Declines after which the card is never tried again: the user is asked for another one. */
const HARD_DECLINES = new Set([
  'card_expired',
  'permission_revoked',
  'payment_method_restricted',
  'invalid_card_number',
]);
/** A declined renewal is tried at most this many times a period (the first try and two retries). */
const MAX_TRIES = 3;
const LIVE_STATUSES: readonly string[] = ['active', 'past_due'];
const BATCH = 100;

/** The renewal settings as billing last heard them; a missing or unusable one is its default. */
export async function subscriptionSettings(db: Db): Promise<SubscriptionSettings> {
  const settings = settingsRepository(db);
  const entries = await Promise.all(
    (Object.keys(DEFAULT_SUBSCRIPTION_SETTINGS) as SubscriptionSettingKey[]).map(async (key) => {
      const stored = await settings.find(key);
      const parsed = stored ? parseSubscriptionSetting(key, stored) : null;
      return [key, parsed ?? Number(DEFAULT_SUBSCRIPTION_SETTINGS[key])] as const;
    }),
  );
  return Object.fromEntries(entries) as SubscriptionSettings;
}

const hours = (count: number) => count * 3_600_000;

/** When a card subscription's next charge is due: its retry, or `renewal_lead_hours` before the paid end. */
function nextChargeOf(subscription: SubscriptionRow, settings: SubscriptionSettings): Date | null {
  if (!LIVE_STATUSES.includes(subscription.status)) return null;
  if (subscription.method === 'telegram_stars') return subscription.paid_until;
  if (subscription.payment_method_id === null) return null;
  if (subscription.attempt > 0) return subscription.retry_at;
  return new Date(subscription.paid_until.getTime() - hours(settings.renewal_lead_hours));
}

/** A subscription as its owner reads it. */
export function userSubscription(subscription: SubscriptionRow, settings: SubscriptionSettings): UserSubscription {
  return {
    id: subscription.id,
    status: subscription.status,
    method: subscription.method,
    tariff_id: subscription.tariff_id,
    tariff_name: subscription.tariff_name,
    price: subscription.price,
    star_price: subscription.star_price,
    paid_until: subscription.paid_until.toISOString(),
    next_charge_at: nextChargeOf(subscription, settings)?.toISOString() ?? null,
    card: subscription.card_last4 === null ? null : `•••• ${subscription.card_last4}`,
    telegram_charge_id: subscription.telegram_charge_id,
    grace_until: subscription.status === 'past_due' ? (subscription.grace_until?.toISOString() ?? null) : null,
    last_failure: subscription.last_failure,
    needs_new_card: subscription.needs_new_card,
    created_at: subscription.created_at.toISOString(),
    canceled_at: subscription.canceled_at?.toISOString() ?? null,
  };
}

/** A subscription on the admin's «Подписки». */
export function adminSubscription(
  subscription: SubscriptionRow & Record<'username' | 'first_name' | 'last_name' | 'email', string | null>,
  settings: SubscriptionSettings,
): AdminSubscription {
  return {
    ...userSubscription(subscription, settings),
    user_id: subscription.user_id,
    username: subscription.username,
    first_name: subscription.first_name,
    last_name: subscription.last_name,
    email: subscription.email,
    periods_paid: subscription.periods_paid,
    last_failure_at: subscription.last_failure_at?.toISOString() ?? null,
  };
}

/** The end of the period a purchase of `tariff` now would pay for. */
const purchasedEnd = (balance: Balance, tariff: Pick<Tariff, 'id'>, now: Date): Date =>
  purchasedPeriod(balance, tariff, 0, now).tariff?.endDate ?? addOneMonth(now);

/**
 * The consent «Продлевать автоматически» for buying `tariffId` now: the text with the price, the day of the first
 * renewal and how to cancel, and its version. Refused while the user already has a renewing subscription.
 */
export async function renewalConsent(
  deps: BillingDeps,
  userId: number,
  tariffId: number,
): Promise<RenewalConsentResponse> {
  const tariff = await tariffsRepository(deps.db).findById(tariffId);
  if (!tariff || !tariff.is_active) throw billingErrors.tariffNotFound();
  if (await subscriptionsRepository(deps.db).liveOf(userId)) throw billingErrors.subscriptionExists();
  const settings = await subscriptionSettings(deps.db);
  const balance = await readBalance(deps, userId);
  const nextCharge = new Date(purchasedEnd(balance, tariff, new Date()).getTime() - hours(settings.renewal_lead_hours));
  return {
    version: RENEWAL_CONSENT_VERSION,
    text: renewalConsentText({
      tariffName: tariff.name,
      price: tariff.monthly_price,
      nextCharge,
      siteUrl: deps.config.SITE_URL,
    }),
    next_charge_at: nextCharge.toISOString(),
  };
}

/** Checks a request with «Продлевать автоматически» ticked and answers the consent to record with its payment. */
export async function consentToRecord(
  deps: BillingDeps,
  userId: number,
  tariffId: number,
  version: string | undefined,
): Promise<RenewalConsentResponse> {
  if (version !== undefined && version !== RENEWAL_CONSENT_VERSION) throw billingErrors.consentOutdated();
  return renewalConsent(deps, userId, tariffId);
}

/** What the owner is told (`subscription.notice`): in the bot and by e-mail. */
async function notify(
  trx: Db,
  deps: BillingDeps,
  subscription: SubscriptionRow,
  kind: SubscriptionNoticeKind,
  extra: { chargeAt?: Date | null; reason?: string | null } = {},
): Promise<void> {
  await deps.bus.publish(trx, 'subscription.notice', {
    notice_id: randomUUID(),
    kind,
    subscription_id: subscription.id,
    user_id: subscription.user_id,
    method: subscription.method,
    tariff_name: subscription.tariff_name,
    amount: subscription.price,
    star_amount: subscription.star_price,
    paid_until: subscription.paid_until.toISOString(),
    charge_at: extra.chargeAt?.toISOString() ?? null,
    reason: extra.reason ?? null,
    card: subscription.card_last4 === null ? null : `•••• ${subscription.card_last4}`,
    cancel_url: `${deps.config.SITE_URL}/dashboard`,
    at: new Date().toISOString(),
  });
}

/**
 * A first payment with «Продлевать автоматически» succeeded (in its settling transaction, after the tariff was
 * credited): the subscription starts only when YooKassa says the card was saved (`payment_method.saved`).
 */
export async function startCardSubscription(
  trx: Db,
  deps: BillingDeps,
  payment: PaymentRecord,
  userId: number,
  remote: YookassaPayment,
): Promise<void> {
  const method = remote.payment_method;
  if (!method?.saved) {
    deps.logger.info({ paymentId: payment.paymentId }, 'the card was not saved; no subscription started');
    return;
  }
  const subscriptions = subscriptionsRepository(trx);
  if (await subscriptions.liveOf(userId)) return;
  const balance = await balancesRepository(trx).find(userId);
  const consent = await subscriptions.consentOf(payment.paymentId);
  const id = await subscriptions.insert({
    user_id: userId,
    tariff_id: payment.tariffId as number,
    method: 'card',
    status: 'active',
    price: payment.amount,
    star_price: null,
    payment_method_id: method.id,
    card_last4: method.card?.last4 ?? null,
    telegram_charge_id: null,
    consent_id: consent?.id ?? null,
    first_payment_id: payment.id,
    paid_until: balance?.tariffEndDate ?? addOneMonth(new Date()),
  });
  if (id === null) return;
  await notify(trx, deps, (await subscriptions.find(id)) as SubscriptionRow, 'started');
}

/**
 * A Stars subscription's payment was recorded and credited (in its transaction): the first one of the invoice starts
 * the subscription (Telegram's first charge id is what cancels it), each later one — a new charge id, so once each —
 * moves its paid end to the one Telegram names. Telegram allows several subscriptions of one user; each is its own.
 */
export async function starSubscriptionPaid(
  trx: Db,
  deps: BillingDeps,
  paid: { payment: PaymentRecord; userId: number; invoice: { id: string; starAmount: number }; paidUntil: Date },
): Promise<void> {
  const { payment, invoice, paidUntil } = paid;
  const subscriptions = subscriptionsRepository(trx);
  const known = await subscriptions.lockByStarInvoice(invoice.id);
  if (known) {
    const patch = {
      paid_until: paidUntil > known.paid_until ? paidUntil : known.paid_until,
      periods_paid: known.periods_paid + 1,
      status: 'active' as const,
      canceled_at: null,
      ended_at: null,
    };
    await subscriptions.update(known.id, patch);
    await notify(trx, deps, { ...known, ...patch }, 'renewed');
    return;
  }
  const id = await subscriptions.insert({
    user_id: paid.userId,
    tariff_id: payment.tariffId as number,
    method: 'telegram_stars',
    status: 'active',
    price: payment.amount,
    star_price: invoice.starAmount,
    payment_method_id: null,
    card_last4: null,
    telegram_charge_id: payment.telegramPaymentChargeId,
    star_invoice_id: invoice.id,
    consent_id: null,
    first_payment_id: payment.id,
    paid_until: paidUntil,
  });
  if (id !== null) await notify(trx, deps, (await subscriptions.find(id)) as SubscriptionRow, 'started');
}

/**
 * The period a renewal pays: the month after the subscription's paid end (from the original due date, even when the
 * charge came in the grace period; from the tariff's own end when a month bought by hand runs past it), with the
 * tariff's included credits; a tariff set aside behind a promo code's is lengthened instead.
 */
export function renewedPeriod(
  balance: Balance,
  subscription: Pick<SubscriptionRow, 'tariff_id' | 'paid_until'>,
  includedCredits: number,
  now: Date,
): Pick<BalanceChange, 'tariff' | 'postings' | 'resume'> {
  if (balance.tariff.id !== subscription.tariff_id) {
    return purchasedPeriod(balance, { id: subscription.tariff_id }, includedCredits, now);
  }
  const paidEnd =
    balance.tariffEndDate && balance.tariffEndDate > subscription.paid_until
      ? balance.tariffEndDate
      : subscription.paid_until;
  return {
    tariff: { id: subscription.tariff_id, endDate: addOneMonth(paidEnd) },
    postings: [{ bucket: 'included', amount: includedCredits }],
  };
}

/**
 * A month of the tariff bought by hand while a card subscription of it renews: the subscription is paid until the
 * tariff's new end too, so its next charge moves after that month instead of cutting it short.
 */
export async function followPurchase(trx: Db, userId: number, tariffId: number, tariffEnd: Date): Promise<void> {
  const live = await subscriptionsRepository(trx).liveOf(userId);
  if (live?.method !== 'card' || live.tariff_id !== tariffId || live.paid_until >= tariffEnd) return;
  await subscriptionsRepository(trx).update(live.id, { paid_until: tariffEnd });
}

/**
 * A renewal's payment succeeded (in its settling transaction): the ledger reference of the period
 * (`renewal:<subscription>:<period>`) and the change it makes, to post once; the subscription moves on a period.
 */
export async function renewalCredit(trx: Db, payment: PaymentRecord) {
  const subscription = await subscriptionsRepository(trx).lock(payment.subscriptionId as number);
  if (!subscription) throw new Error(`subscription ${payment.subscriptionId} of payment ${payment.id} is gone`);
  return {
    subscription,
    reference: `renewal:${subscription.id}:${payment.renewalPeriod}`,
    change: (balance: Balance, now: Date) =>
      renewedPeriod(balance, subscription, Number(subscription.included_credits), now),
  };
}

/**
 * After the renewal's credit: the subscription is paid for one more period — until the tariff's new end (`tariffEnd`,
 * a month after the paid end) —, its failures forgotten, the owner told.
 */
export async function markRenewed(
  trx: Db,
  deps: BillingDeps,
  subscription: SubscriptionRow,
  payment: PaymentRecord,
  tariffEnd: Date | null,
) {
  if (payment.renewalPeriod !== subscription.periods_paid + 1) return;
  const paidUntil = tariffEnd ?? addOneMonth(subscription.paid_until);
  const live = LIVE_STATUSES.includes(subscription.status);
  await subscriptionsRepository(trx).update(subscription.id, {
    periods_paid: payment.renewalPeriod,
    paid_until: paidUntil,
    attempt: 0,
    retry_at: null,
    first_declined_at: null,
    grace_until: null,
    ...(live ? { status: 'active' } : {}),
  });
  await notify(trx, deps, { ...subscription, paid_until: paidUntil }, 'renewed');
}

/**
 * A renewal's charge was declined (in its settling transaction). A hard decline (`card_expired`,
 * `permission_revoked`, …) ends the subscription: no retry, the owner is asked for another card. Any other is retried
 * `renewal_retry_first_days` and `renewal_retry_second_days` after the first decline, while the tariff lasts
 * `renewal_grace_days` past its paid end; the owner is told at once.
 */
export async function renewalDeclined(trx: Db, deps: BillingDeps, payment: PaymentRecord, reason: string | null) {
  const subscriptions = subscriptionsRepository(trx);
  const subscription = await subscriptions.lock(payment.subscriptionId as number);
  if (!subscription || payment.renewalPeriod !== subscription.periods_paid + 1) return;
  if (!LIVE_STATUSES.includes(subscription.status)) return;
  const now = new Date();
  const failure = { last_failure: reason ?? 'unknown', last_failure_at: now };
  if (reason !== null && HARD_DECLINES.has(reason)) {
    await subscriptions.update(subscription.id, {
      ...failure,
      status: 'ended',
      ended_at: now,
      needs_new_card: true,
      payment_method_id: null,
      retry_at: null,
    });
    await notify(trx, deps, subscription, 'card_needed', { reason });
    return;
  }
  const settings = await subscriptionSettings(trx);
  const attempt = Math.max(subscription.attempt + 1, payment.renewalTry ?? 1);
  const firstDeclinedAt = subscription.first_declined_at ?? now;
  const retryDays = [settings.renewal_retry_first_days, settings.renewal_retry_second_days][attempt - 1];
  const retryAt = attempt < MAX_TRIES && retryDays !== undefined ? addDays(retryDays)(firstDeclinedAt) : null;
  const graceUntil = subscription.grace_until ?? addDays(settings.renewal_grace_days)(subscription.paid_until);
  await subscriptions.update(subscription.id, {
    ...failure,
    status: 'past_due',
    attempt,
    first_declined_at: firstDeclinedAt,
    retry_at: retryAt,
    grace_until: graceUntil,
  });
  await notify(trx, deps, { ...subscription, grace_until: graceUntil }, 'declined', { chargeAt: retryAt, reason });
}

/**
 * Starts the charge of a card subscription's next period, or finds the one already started: the payment of the
 * period and try is unique, so every concurrent caller — the job, an admin, a retry — gets the same row and asks
 * YooKassa with the same Idempotence-Key. `force` (the admin's «Продлить сейчас») charges before it is due, but never
 * a period after the next month (refused once that is paid). Null when nothing is to be charged.
 */
export async function claimRenewal(
  deps: BillingDeps,
  subscriptionId: number,
  options: { force: boolean; now?: Date },
): Promise<PaymentRecord | null> {
  const now = options.now ?? new Date();
  const settings = await subscriptionSettings(deps.db);
  return deps.bus.transaction(async (trx) => {
    const subscription = await subscriptionsRepository(trx).lock(subscriptionId);
    if (!subscription) throw billingErrors.subscriptionNotFound();
    const payments = paymentsRepository(trx);
    if (options.force) {
      if (subscription.method !== 'card') throw billingErrors.subscriptionNotCard();
      if (!LIVE_STATUSES.includes(subscription.status) || subscription.payment_method_id === null) {
        throw billingErrors.subscriptionNotRenewing();
      }
      if (subscription.paid_until > addOneMonth(now)) throw billingErrors.subscriptionPeriodPaid();
    } else {
      const due = nextChargeOf(subscription, settings);
      if (subscription.method !== 'card' || due === null || due > now) return null;
    }
    const period = subscription.periods_paid + 1;
    const attempt = subscription.attempt + 1;
    if (attempt > MAX_TRIES) return null;
    const started = await payments.findRenewal(subscription.id, period, attempt);
    if (started) return started.status === 'pending' ? started : null;
    const first = await trx
      .selectFrom('payments')
      .select('email')
      .where('id', '=', subscription.first_payment_id)
      .executeTakeFirst();
    const paymentId = randomUUID();
    return payments.insert({
      paymentId,
      userId: subscription.user_id,
      kind: 'tariff',
      tariffId: subscription.tariff_id,
      amount: subscription.price,
      creditsAmount: Number(subscription.included_credits),
      status: 'pending',
      description: `Тариф «${subscription.tariff_name}» на 1 месяц, автопродление`,
      email: first?.email ?? null,
      source: 'web',
      metadata: {
        payment_id: paymentId,
        user_id: String(subscription.user_id),
        kind: 'tariff',
        tariff_id: String(subscription.tariff_id),
        subscription_id: String(subscription.id),
      },
      renewal: { subscriptionId: subscription.id, period, attempt },
    });
  });
}

/** The saved method a renewal charges, and the YooKassa Idempotence-Key of its period and try. */
export async function renewalCharge(db: Db, payment: PaymentRecord) {
  const subscription = await subscriptionsRepository(db).find(payment.subscriptionId as number);
  return {
    paymentMethodId: subscription?.payment_method_id ?? null,
    idempotenceKey: `renewal-${payment.subscriptionId}-${payment.renewalPeriod}-${payment.renewalTry}`,
  };
}

/**
 * Cancels a subscription's renewal for its owner (or an admin, `userId` null): no charge is attempted again, the
 * tariff lasts to its paid end. `removeCard` also erases the saved card. Stars subscriptions are canceled at
 * Telegram first (the bot does it); `telegramCanceled` says it has.
 */
export async function cancelSubscription(
  deps: BillingDeps,
  subscriptionId: number,
  options: {
    userId: number | null;
    removeCard?: boolean;
    telegramCanceled?: boolean;
    /** Runs in the change's transaction after it (an admin's audit entry). */
    inside?: (trx: Db) => Promise<void>;
  },
): Promise<SubscriptionRow> {
  return deps.bus.transaction(async (trx) => {
    const subscriptions = subscriptionsRepository(trx);
    const subscription = await subscriptions.lock(subscriptionId);
    if (!subscription || (options.userId !== null && subscription.user_id !== options.userId)) {
      throw billingErrors.subscriptionNotFound();
    }
    if (subscription.method === 'telegram_stars' && !options.telegramCanceled)
      throw billingErrors.subscriptionNotCard();
    const live = LIVE_STATUSES.includes(subscription.status);
    if (!live && !(options.removeCard && subscription.payment_method_id !== null)) {
      throw billingErrors.subscriptionNotRenewing();
    }
    const now = new Date();
    const patch = {
      ...(live ? { status: 'canceled' as const, canceled_at: now, retry_at: null } : {}),
      ...(options.removeCard ? { payment_method_id: null, card_last4: null } : {}),
    };
    await subscriptions.update(subscription.id, patch);
    const canceled = { ...subscription, ...patch };
    if (live) await notify(trx, deps, canceled, 'canceled');
    await options.inside?.(trx);
    return canceled;
  });
}

/**
 * A cancellation made on the site or by an admin: a renewing Stars subscription is canceled at Telegram first (through
 * the bot), so no charge follows a cancellation that was only recorded here; then as `cancelSubscription`.
 */
export async function cancelAnywhere(
  deps: BillingDeps,
  providers: Providers,
  subscriptionId: number,
  options: Omit<Parameters<typeof cancelSubscription>[2], 'telegramCanceled'>,
): Promise<SubscriptionRow> {
  const subscription = await subscriptionsRepository(deps.db).find(subscriptionId);
  if (!subscription || (options.userId !== null && subscription.user_id !== options.userId)) {
    throw billingErrors.subscriptionNotFound();
  }
  const stars = subscription.method === 'telegram_stars';
  if (stars && LIVE_STATUSES.includes(subscription.status) && subscription.telegram_charge_id) {
    const owner = await usersRepository(deps.db).find(subscription.user_id);
    if (!owner || owner.telegramId === null) throw billingErrors.subscriptionNotRenewing();
    try {
      await providers.stars.cancelSubscription({
        telegram_id: owner.telegramId,
        telegram_payment_charge_id: subscription.telegram_charge_id,
      });
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      deps.logger.error({ err, subscriptionId }, 'Telegram did not cancel a Stars subscription');
      throw billingErrors.telegramCancelFailed(err.message);
    }
  }
  return cancelSubscription(deps, subscriptionId, { ...options, telegramCanceled: stars });
}

/**
 * A Stars subscription the bot canceled is renewing again: Telegram allows it until the paid end, and the bot has
 * turned it back on there (`editUserStarSubscription` with `is_canceled: false`) before asking.
 */
export async function resumeStarSubscription(deps: BillingDeps, subscriptionId: number, userId: number) {
  return deps.bus.transaction(async (trx) => {
    const subscriptions = subscriptionsRepository(trx);
    const subscription = await subscriptions.lock(subscriptionId);
    if (!subscription || subscription.user_id !== userId) throw billingErrors.subscriptionNotFound();
    if (subscription.method !== 'telegram_stars') throw billingErrors.subscriptionNotStars();
    if (subscription.status !== 'canceled' || subscription.paid_until <= new Date()) {
      throw billingErrors.subscriptionEnded();
    }
    const patch = { status: 'active' as const, canceled_at: null };
    await subscriptions.update(subscription.id, patch);
    return { ...subscription, ...patch };
  });
}

/** The first moment of this Moscow month, as the dashboard counts months (docs/money.md). */
function moscowMonthStart(now: Date): Date {
  const [year, month] = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Moscow',
    year: 'numeric',
    month: '2-digit',
  })
    .format(now)
    .split('-')
    .map(Number);
  // Moscow is UTC+3 all year round.
  return new Date(Date.UTC(year as number, (month as number) - 1, 1) - hours(3));
}

/** The dashboard's figures: renewing subscriptions, the roubles a month they bring, cancellations this month. */
export async function subscriptionStats(deps: BillingDeps, now = new Date()): Promise<SubscriptionStats> {
  const stats = await subscriptionsRepository(deps.db).stats(moscowMonthStart(now));
  return { active: stats.active, monthly_recurring_revenue: stats.mrr, canceled_this_month: stats.canceled };
}

/** The reminders job: `renewal_reminder_days` before each charge the owner is told the amount, the day and how to cancel. */
export async function sendReminders(deps: BillingDeps, now = new Date()): Promise<number> {
  const settings = await subscriptionSettings(deps.db);
  const due = await subscriptionsRepository(deps.db).dueReminders(
    now,
    settings.renewal_lead_hours,
    settings.renewal_reminder_days,
    BATCH,
  );
  let sent = 0;
  for (const id of due) {
    await deps.bus.transaction(async (trx) => {
      const subscription = await subscriptionsRepository(trx).lock(id);
      if (subscription?.status !== 'active' || subscription.reminded_period > subscription.periods_paid) return;
      await subscriptionsRepository(trx).update(id, { reminded_period: subscription.periods_paid + 1 });
      await notify(trx, deps, subscription, 'reminder', { chargeAt: nextChargeOf(subscription, settings) });
      sent++;
    });
  }
  return sent;
}

/**
 * The end of subscriptions nobody paid: a declined renewal past its grace period (its tariff then expires), a Stars
 * subscription Telegram did not renew within `renewal_grace_days` of its paid end.
 */
export async function endLapsedSubscriptions(deps: BillingDeps, now = new Date()): Promise<number> {
  const settings = await subscriptionSettings(deps.db);
  const due = await subscriptionsRepository(deps.db).lapsed(now, addDays(-settings.renewal_grace_days)(now), BATCH);
  let ended = 0;
  for (const id of due) {
    await deps.bus.transaction(async (trx) => {
      const subscription = await subscriptionsRepository(trx).lock(id);
      if (!subscription || !LIVE_STATUSES.includes(subscription.status)) return;
      await subscriptionsRepository(trx).update(id, { status: 'ended', ended_at: now, retry_at: null });
      await notify(trx, deps, subscription, 'ended', { reason: subscription.last_failure });
      ended++;
    });
  }
  return ended;
}
