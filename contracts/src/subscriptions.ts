import { z } from 'zod';
import { Id, IdParam, IsoDateTime, listQuery, Money, QueryId, TelegramIdInput } from './common';
import { formatRoubles } from './pricing';

/**
 * Renewing tariffs (docs/money.md, Subscriptions): a paid tariff renewed every month by a saved YooKassa card or
 * a Telegram Stars subscription, with the consent the user gave, reminders before each charge and failures.
 */

/**
 * The version of the consent text «Продлевать автоматически» (`renewalConsentText`): recorded with each consent,
 * so what a user agreed to can be read back word for word. A change of the wording is a new version.
 */
export const RENEWAL_CONSENT_VERSION = '2026-03-01';

/** What the consent names: the tariff, its monthly price, the day of the next charge and where to cancel. */
export interface RenewalConsentTerms {
  tariffName: string;
  price: string;
  /** When the first renewal will be charged. */
  nextCharge: Date;
  /** The site, for the address of the personal account. */
  siteUrl: string;
}

/** Made on first use, as formatRoubles's format is. */
let moscowDay: Intl.DateTimeFormat | undefined;

/** A day as the consent, the reminders and the account show it («27 декабря 2026 г.», Moscow time). */
export const formatChargeDay = (date: Date | string) =>
  (moscowDay ??= new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Moscow',
  })).format(new Date(date));

/** The consent text the user ticks «Продлевать автоматически» under, and that billing records with its version. */
export function renewalConsentText(terms: RenewalConsentTerms): string {
  return (
    `Я соглашаюсь, что моя карта будет сохранена в ЮKassa и с неё будет списываться ${formatRoubles(terms.price)} ` +
    `раз в месяц за тариф «${terms.tariffName}», пока я не отменю автопродление. Следующее списание — ` +
    `${formatChargeDay(terms.nextCharge)}; за несколько дней до каждого списания придёт напоминание. ` +
    `Отменить автопродление или удалить карту можно в любой момент в личном кабинете (${terms.siteUrl}/dashboard) ` +
    'или командой /subscription в Telegram-боте; оплаченный срок тарифа сохранится.'
  );
}

/** The settings of renewals (sys_vals, changed on /admin/sysvals; billing reads its copy of them). */
export const DEFAULT_SUBSCRIPTION_SETTINGS = {
  renewal_lead_hours: '24',
  renewal_reminder_days: '3',
  renewal_retry_first_days: '1',
  renewal_retry_second_days: '3',
  renewal_grace_days: '3',
} as const satisfies Record<string, string>;
export type SubscriptionSettingKey = keyof typeof DEFAULT_SUBSCRIPTION_SETTINGS;
export type SubscriptionSettings = Record<SubscriptionSettingKey, number>;

/** The whole numbers the renewal settings may take. */
export const SUBSCRIPTION_SETTING_RANGES = {
  renewal_lead_hours: { min: 1, max: 72 },
  renewal_reminder_days: { min: 1, max: 14 },
  renewal_retry_first_days: { min: 1, max: 10 },
  renewal_retry_second_days: { min: 1, max: 10 },
  renewal_grace_days: { min: 1, max: 14 },
} as const satisfies Record<SubscriptionSettingKey, { min: number; max: number }>;

export const isSubscriptionSettingKey = (key: string): key is SubscriptionSettingKey =>
  Object.hasOwn(DEFAULT_SUBSCRIPTION_SETTINGS, key);

/** The number of a renewal setting's value, or null when it is not a whole number within its range. */
export function parseSubscriptionSetting(key: SubscriptionSettingKey, value: string): number | null {
  if (!/^\d{1,4}$/.test(value)) return null;
  const number = Number(value);
  const { min, max } = SUBSCRIPTION_SETTING_RANGES[key];
  return number >= min && number <= max ? number : null;
}

/**
 * `active`: renews itself; `past_due`: a charge was declined, retried while the grace period lasts;
 * `canceled`: no charge ever again, the tariff lasts to its paid end; `ended`: over (unpaid after the grace period,
 * the card can no longer be charged, or a Stars subscription Telegram stopped).
 */
export const SubscriptionStatus = z.enum(['active', 'past_due', 'canceled', 'ended']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** What the site calls each status. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Продлевается',
  past_due: 'Не удалось списать',
  canceled: 'Автопродление отменено',
  ended: 'Закончилась',
};

/** How a subscription is paid: a saved YooKassa card, or a Telegram Stars subscription. */
export const SubscriptionMethod = z.enum(['card', 'telegram_stars']);
export type SubscriptionMethod = z.infer<typeof SubscriptionMethod>;

export const SUBSCRIPTION_METHOD_LABELS: Record<SubscriptionMethod, string> = {
  card: 'Картой',
  telegram_stars: 'Звёздами в Telegram',
};

/** A subscription as its owner sees it (the account's «Автопродление», the bot's /subscription). */
export const UserSubscription = z
  .object({
    id: Id,
    status: SubscriptionStatus,
    method: SubscriptionMethod,
    tariff_id: Id,
    tariff_name: z.string(),
    price: Money.meta({ description: 'Roubles a month' }),
    star_price: z.int().min(1).nullable().meta({ description: 'Stars a month (telegram_stars)' }),
    paid_until: IsoDateTime.meta({ description: 'The end of the paid period' }),
    next_charge_at: IsoDateTime.nullable().meta({ description: 'When the next charge is due; null when none will be' }),
    card: z.string().nullable().meta({ description: 'The saved card, «•••• 4444»; null for Stars or once removed' }),
    telegram_charge_id: z
      .string()
      .nullable()
      .meta({ description: 'A Stars subscription: the charge Telegram cancels or resumes it by' }),
    grace_until: IsoDateTime.nullable().meta({
      description: 'While a declined renewal is retried: the tariff lasts until',
    }),
    last_failure: z.string().nullable().meta({ description: "The provider's reason of the last declined charge" }),
    needs_new_card: z.boolean().meta({ description: 'The card can no longer be charged: pay again with another one' }),
    created_at: IsoDateTime,
    canceled_at: IsoDateTime.nullable(),
  })
  .meta({ id: 'UserSubscription' });
export type UserSubscription = z.infer<typeof UserSubscription>;

export const UserSubscriptionsResponse = z
  .object({ subscriptions: z.array(UserSubscription) })
  .meta({ id: 'UserSubscriptionsResponse' });
export type UserSubscriptionsResponse = z.infer<typeof UserSubscriptionsResponse>;

export const SubscriptionIdParams = z.object({ id: IdParam });
export type SubscriptionIdParams = z.infer<typeof SubscriptionIdParams>;

/** `GET /api/billing/subscriptions/consent/{tariff_id}`: the consent text to show beside the tick, and its version. */
export const RenewalConsentParams = z.object({ tariff_id: IdParam });
export type RenewalConsentParams = z.infer<typeof RenewalConsentParams>;

export const RenewalConsentResponse = z
  .object({
    version: z.string(),
    text: z.string(),
    next_charge_at: IsoDateTime,
  })
  .meta({ id: 'RenewalConsentResponse' });
export type RenewalConsentResponse = z.infer<typeof RenewalConsentResponse>;

/** `GET /api/bot/subscriptions?telegram_id=`: a Telegram user's subscriptions (the bot's /subscription). */
export const BotSubscriptionsQuery = z.object({ telegram_id: TelegramIdInput });
export type BotSubscriptionsQuery = z.infer<typeof BotSubscriptionsQuery>;

/** `POST /api/bot/subscriptions/{id}/cancel` and `/resume`: whose subscription it is. */
export const BotSubscriptionRequest = z.object({ telegram_id: TelegramIdInput }).meta({ id: 'BotSubscriptionRequest' });
export type BotSubscriptionRequest = z.infer<typeof BotSubscriptionRequest>;

/**
 * Internal call of billing to the bot (`POST {BOT_URL}/internal/stars/subscriptions/cancel`, the bot key): a Stars
 * subscription canceled on the site or by an admin is canceled at Telegram (`editUserStarSubscription`), which only the
 * bot can call, before billing records it.
 */
export const InternalStarSubscriptionCancel = z
  .object({ telegram_id: TelegramIdInput, telegram_payment_charge_id: z.string().min(1).max(256) })
  .meta({ id: 'InternalStarSubscriptionCancel' });
export type InternalStarSubscriptionCancel = z.infer<typeof InternalStarSubscriptionCancel>;

export const internalStarSubscriptionCancelPath = '/internal/stars/subscriptions/cancel';

/** A subscription on the admin's «Подписки», with its owner. */
export const AdminSubscription = UserSubscription.extend({
  user_id: Id,
  username: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  periods_paid: z.int().min(1),
  last_failure_at: IsoDateTime.nullable(),
}).meta({ id: 'AdminSubscription' });
export type AdminSubscription = z.infer<typeof AdminSubscription>;

export const ADMIN_SUBSCRIPTIONS_SORT_FIELDS = ['id', 'status', 'paid_until', 'price', 'created_at'] as const;

/** `GET /api/admin/subscriptions`: newest first; empty status or method means all. */
export const AdminSubscriptionsQuery = listQuery({
  sortFields: ADMIN_SUBSCRIPTIONS_SORT_FIELDS,
  defaultSort: { field: 'created_at', order: 'desc' },
}).extend({
  userId: QueryId,
  status: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), SubscriptionStatus.optional()),
  method: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), SubscriptionMethod.optional()),
});
export type AdminSubscriptionsQuery = z.infer<typeof AdminSubscriptionsQuery>;

export const AdminSubscriptionsResponse = z
  .object({ subscriptions: z.array(AdminSubscription), total: z.int().min(0) })
  .meta({ id: 'AdminSubscriptionsResponse' });
export type AdminSubscriptionsResponse = z.infer<typeof AdminSubscriptionsResponse>;

/** The dashboard's figures of renewing tariffs. */
export const SubscriptionStats = z
  .object({
    active: z.int().min(0).meta({ description: 'Subscriptions renewing now (active or retrying a declined charge)' }),
    monthly_recurring_revenue: Money.meta({ description: 'Roubles a month the active subscriptions bring' }),
    canceled_this_month: z.int().min(0).meta({ description: 'Canceled since the 1st of this Moscow month' }),
  })
  .meta({ id: 'SubscriptionStats' });
export type SubscriptionStats = z.infer<typeof SubscriptionStats>;

/** `POST /api/admin/subscriptions/{id}/renew` and `/cancel`: the admin's reason, for the audit log. */
export const AdminSubscriptionActionRequest = z
  .object({ reason: z.string().trim().max(500).optional() })
  .meta({ id: 'AdminSubscriptionActionRequest' });
export type AdminSubscriptionActionRequest = z.infer<typeof AdminSubscriptionActionRequest>;

/** What a subscription's owner is told, in the bot and by e-mail (`subscription.notice`). */
export const SubscriptionNoticeKind = z.enum([
  'started',
  'renewed',
  'reminder',
  'declined',
  'card_needed',
  'ended',
  'canceled',
]);
export type SubscriptionNoticeKind = z.infer<typeof SubscriptionNoticeKind>;

/** What a notice says of a subscription, in the words the e-mail and the bot share. */
export interface SubscriptionNoticeFacts {
  kind: SubscriptionNoticeKind;
  tariff_name: string;
  amount: string;
  star_amount: number | null;
  method: SubscriptionMethod;
  paid_until: string;
  charge_at: string | null;
  reason: string | null;
  card: string | null;
  cancel_url: string;
}

/** YooKassa's reasons of a declined charge that a payer can act on, in Russian. */
const DECLINE_REASONS: Record<string, string> = {
  insufficient_funds: 'на карте не хватило денег',
  card_expired: 'истёк срок действия карты',
  permission_revoked: 'разрешение на списания с карты отозвано',
  payment_method_restricted: 'операции по карте ограничены',
  call_issuer: 'банк отклонил платёж, позвоните в банк',
  issuer_unavailable: 'банк временно недоступен',
};

/** Why a charge was declined, as the owner reads it. */
export const declineReasonText = (reason: string | null) => (reason && DECLINE_REASONS[reason]) ?? 'платёж отклонён';

/** The e-mail of a subscription notice: its subject and text (the bot says the same in its own words). */
export function subscriptionNoticeMail(notice: SubscriptionNoticeFacts): { subject: string; text: string } {
  const price = notice.method === 'telegram_stars' ? `${notice.star_amount} ⭐` : formatRoubles(notice.amount);
  const card = notice.card ? ` с карты ${notice.card}` : '';
  const cancel = `Отменить автопродление: ${notice.cancel_url} (или /subscription в Telegram-боте).`;
  const until = formatChargeDay(notice.paid_until);
  switch (notice.kind) {
    case 'started':
      return {
        subject: `Автопродление тарифа «${notice.tariff_name}» включено`,
        text: `Тариф «${notice.tariff_name}» оплачен до ${until} и будет продлеваться каждый месяц за ${price}${card}.\n${cancel}`,
      };
    case 'renewed':
      return {
        subject: `Тариф «${notice.tariff_name}» продлён`,
        text: `Списано ${price}${card}: тариф «${notice.tariff_name}» продлён до ${until}.\n${cancel}`,
      };
    case 'reminder':
      return {
        subject: `Скоро продление тарифа «${notice.tariff_name}»`,
        text:
          `${formatChargeDay(notice.charge_at ?? notice.paid_until)} будет списано ${price}${card} ` +
          `за следующий месяц тарифа «${notice.tariff_name}».\n${cancel}`,
      };
    case 'declined':
      return {
        subject: `Не удалось продлить тариф «${notice.tariff_name}»`,
        text:
          `Списание ${price}${card} не прошло: ${declineReasonText(notice.reason)}. ` +
          (notice.charge_at ? `Попробуем снова ${formatChargeDay(notice.charge_at)}. ` : '') +
          `Тариф пока действует.\n${cancel}`,
      };
    case 'card_needed':
      return {
        subject: `Тариф «${notice.tariff_name}» не продлится сам`,
        text:
          `Списание${card} невозможно: ${declineReasonText(notice.reason)}. Больше попыток не будет. ` +
          `Тариф действует до ${until}; чтобы продлить его, оплатите тариф другой картой на сайте.`,
      };
    case 'ended':
      return {
        subject: `Автопродление тарифа «${notice.tariff_name}» закончилось`,
        text: `Тариф «${notice.tariff_name}» не был оплачен и больше не продлевается. Купить его снова можно на сайте.`,
      };
    case 'canceled':
      return {
        subject: `Автопродление тарифа «${notice.tariff_name}» отменено`,
        text: `Списаний больше не будет. Тариф «${notice.tariff_name}» действует до ${until}.`,
      };
  }
}
