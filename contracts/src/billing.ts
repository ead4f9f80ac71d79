import { z } from 'zod';
import { AuditReason } from './audit';
import { emailInput } from './auth';
import {
  Credits,
  CreditsAmount,
  decimalInput,
  Id,
  IdParam,
  IsoDateTime,
  limitParam,
  listQuery,
  Money,
  nullableText,
  PageParam,
  QueryId,
  queryText,
  SerialId,
  TelegramId,
  TelegramIdInput,
} from './common';

/**
 * Billing service: tariffs, payments through YooKassa, the credit balance and its snapshot.
 * Roubles are decimal strings with 2 decimals ("350.00"); credits are integers.
 */

// ---------------------------------------------------------------------------------------------
// Tariffs

export const Tariff = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string().nullable(),
    monthly_price: Money,
    credits_per_ruble: z.int().positive(),
    included_credits: CreditsAmount,
    can_generate_images: z.boolean(),
    is_active: z.boolean(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'Tariff' });
export type Tariff = z.infer<typeof Tariff>;

/** A tariff in selects (`GET /api/admin/tariffs/all`). */
export const TariffOption = z.object({ id: Id, name: z.string(), monthly_price: Money }).meta({ id: 'TariffOption' });
export type TariffOption = z.infer<typeof TariffOption>;

export const TariffOptionsResponse = z.array(TariffOption).meta({ id: 'TariffOptionsResponse' });
export type TariffOptionsResponse = z.infer<typeof TariffOptionsResponse>;

/** An active tariff as the home and pricing pages show it. */
export const PublicTariff = Tariff.omit({ is_active: true, created_at: true, updated_at: true }).meta({
  id: 'PublicTariff',
});
export type PublicTariff = z.infer<typeof PublicTariff>;

export const PublicTariffsResponse = z
  .object({ success: z.literal(true), tariffs: z.array(PublicTariff) })
  .meta({ id: 'PublicTariffsResponse' });
export type PublicTariffsResponse = z.infer<typeof PublicTariffsResponse>;

const creditsPerRubleMessage = 'Количество кредитов должно быть больше 0';

/** Body of `POST /api/admin/tariffs` and `PUT /api/admin/tariffs/{id}` with the docs/product.md, Data defaults. */
export const TariffInput = z
  .object({
    name: z
      .string({ error: 'Название обязательно' })
      .trim()
      .min(1, { error: 'Название обязательно', abort: true })
      .max(100, { error: 'Название должно быть не длиннее 100 символов' }),
    description: nullableText(2000),
    monthly_price: decimalInput({
      scale: 2,
      min: '0',
      max: '10000000',
      messages: {
        invalid: 'Цена должна быть числом',
        scale: 'Цена: не более 2 знаков после запятой',
        min: 'Цена не может быть отрицательной',
        max: 'Цена не может быть больше 10 000 000 ₽',
      },
    })
      .default('0.00')
      .meta({ description: 'Roubles per month, at most 2 decimals' }),
    credits_per_ruble: z
      .number({ error: creditsPerRubleMessage })
      .positive({ error: creditsPerRubleMessage, abort: true })
      .int({ error: 'Количество кредитов должно быть целым числом' })
      .max(1_000_000, { error: 'Количество кредитов не может быть больше 1 000 000' })
      .default(100),
    included_credits: z
      .number({ error: 'Включённые кредиты должны быть целым числом не меньше 0' })
      .int({ error: 'Включённые кредиты должны быть целым числом не меньше 0' })
      .min(0, { error: 'Включённые кредиты должны быть целым числом не меньше 0' })
      .default(0),
    can_generate_images: z.boolean().default(false),
    is_active: z.boolean().default(true),
  })
  .meta({ id: 'TariffInput' });
export type TariffInput = z.infer<typeof TariffInput>;

export const TariffResponse = z.object({ success: z.literal(true), tariff: Tariff }).meta({ id: 'TariffResponse' });
export type TariffResponse = z.infer<typeof TariffResponse>;

export const ADMIN_TARIFFS_SORT_FIELDS = [
  'id',
  'name',
  'monthly_price',
  'credits_per_ruble',
  'included_credits',
  'can_generate_images',
  'is_active',
  'created_at',
] as const;
export const AdminTariffsSortField = z.enum(ADMIN_TARIFFS_SORT_FIELDS);
export type AdminTariffsSortField = z.infer<typeof AdminTariffsSortField>;

/** `GET /api/admin/tariffs`: default sort id ascending (description is not sortable). */
export const AdminTariffsQuery = listQuery({
  sortFields: ADMIN_TARIFFS_SORT_FIELDS,
  defaultSort: { field: 'id', order: 'asc' },
});
export type AdminTariffsQuery = z.infer<typeof AdminTariffsQuery>;

export const AdminTariffsResponse = z
  .object({ data: z.array(Tariff), total: z.int().min(0) })
  .meta({ id: 'AdminTariffsResponse' });
export type AdminTariffsResponse = z.infer<typeof AdminTariffsResponse>;

export const TariffIdParams = z.object({ id: IdParam });
export type TariffIdParams = z.infer<typeof TariffIdParams>;

// ---------------------------------------------------------------------------------------------
// Balance

/** The tariff part of a balance: Base when nothing was bought or the period ended. */
export const TariffSnapshot = z
  .object({ id: Id, name: z.string(), monthly_price: Money, end_date: IsoDateTime.nullable() })
  .meta({ id: 'TariffSnapshot' });
export type TariffSnapshot = z.infer<typeof TariffSnapshot>;

/** Credits reserved by the bot's active, unexpired holds; 0 in snapshots older than holds. */
const HeldCredits = CreditsAmount.default(0).meta({
  description: 'Credits reserved by active holds of the bot (not yet charged)',
});

/**
 * A user's balance as billing knows it. `version` grows with every change of this user's
 * balance, so projections ignore older snapshots.
 */
export const BalanceSnapshot = z
  .object({
    user_id: Id,
    credits: Credits.meta({ description: 'Bought credits, never expire; may be negative after a charge' }),
    included_credits: Credits.meta({ description: 'Credits of the current tariff period, consumed first' }),
    tariff: TariffSnapshot,
    held_credits: HeldCredits,
    money_deposited: Money.meta({ description: 'Total roubles paid in' }),
    welcome_credits: CreditsAmount.default(0).meta({
      description: 'The welcome grant this balance holds (0: none); at most one, also after a merge',
    }),
    version: z.int().min(0),
  })
  .meta({ id: 'BalanceSnapshot' });
export type BalanceSnapshot = z.infer<typeof BalanceSnapshot>;

/** `GET /api/bot/balance?telegram_id=`. */
export const BotBalanceQuery = z.object({ telegram_id: TelegramIdInput });
export type BotBalanceQuery = z.infer<typeof BotBalanceQuery>;

export const BotBalanceResponse = z
  .object({
    user_id: Id,
    telegram_id: TelegramId,
    credits: Credits,
    included_credits: Credits,
    held_credits: CreditsAmount,
    available_credits: Credits.meta({ description: 'credits + included_credits − held_credits' }),
    can_send: z.boolean().meta({ description: 'available_credits > 0: a paid request is allowed' }),
    can_generate_images: z.boolean(),
    tariff: TariffSnapshot,
    welcome_credits: CreditsAmount.meta({ description: 'The welcome grant this balance holds (0: none)' }),
  })
  .meta({ id: 'BotBalanceResponse' });
export type BotBalanceResponse = z.infer<typeof BotBalanceResponse>;

/** The most credits one hold may reserve. */
export const MAX_HOLD_CREDITS = 1_000_000_000_000;

/**
 * `POST /api/bot/holds`: before a model call the bot reserves the most the call can cost. Refused
 * with 402 `insufficient_credits` when fewer credits are available, its `details` one
 * InsufficientCreditsDetail (what was available, so the refusal can say it); the hold is released by
 * `DELETE /api/bot/holds/{id}`, settled by the message recorded with its `hold_id`, or expires.
 */
export const BotHoldRequest = z
  .object({
    telegram_id: TelegramIdInput.optional().meta({ description: 'A bot user (the Telegram door)' }),
    user_id: SerialId.optional().meta({ description: 'A site user without Telegram (the web chat)' }),
    amount: z
      .int({ error: 'amount должен быть целым числом кредитов' })
      .min(1, { error: 'amount должен быть не меньше 1' })
      .max(MAX_HOLD_CREDITS, { error: 'amount слишком велик' }),
  })
  .refine((body) => (body.telegram_id === undefined) !== (body.user_id === undefined), {
    error: 'Укажите telegram_id или user_id',
    path: ['telegram_id'],
  })
  .meta({ id: 'BotHoldRequest' });
export type BotHoldRequest = z.infer<typeof BotHoldRequest>;

export const BotHoldResponse = z
  .object({
    hold_id: z.uuid(),
    amount: CreditsAmount,
    available_credits: Credits.meta({ description: 'Available after this hold' }),
    expires_at: IsoDateTime,
  })
  .meta({ id: 'BotHoldResponse' });
export type BotHoldResponse = z.infer<typeof BotHoldResponse>;

/** The one entry of a 402 `insufficient_credits` answer's `details`: the credits that were available. */
export const InsufficientCreditsDetail = z
  .object({ available_credits: Credits.meta({ description: 'Available when the hold was refused' }) })
  .meta({ id: 'InsufficientCreditsDetail' });
export type InsufficientCreditsDetail = z.infer<typeof InsufficientCreditsDetail>;

export const HoldIdParams = z.object({ id: z.uuid({ error: 'Резерв не найден' }) });
export type HoldIdParams = z.infer<typeof HoldIdParams>;

/**
 * Internal call from auth (admin users screen, never routed by the gateway): a deposit and/or
 * a tariff change, recorded with the acting admin for the audit trail; `action_id` makes a
 * retry idempotent. `POST {BILLING_URL}/internal/users/{user_id}/adjustments` (see
 * `internalAdjustmentsPath`) with the acting admin's `Authorization: Bearer` token forwarded, so
 * billing checks the admin role itself. Answers 200 with the new BalanceSnapshot (auth applies it
 * to its projection under the version rule). Refusals use the error body: 4xx answers other than
 * a bare 404 `not_found` (no such route) reach the admin as they are, e.g. an unknown tariff.
 */
export const InternalAdminAdjustmentRequest = z
  .object({
    user_id: Id,
    admin_id: Id,
    action_id: z.uuid(),
    deposit_credits: z.int().positive().optional(),
    tariff_id: SerialId.optional(),
    /** The admin's reason and Idempotency-Key, for billing's audit entry of the change. */
    reason: AuditReason.optional(),
    idempotency_key: z.string().max(255).optional(),
  })
  .meta({ id: 'InternalAdminAdjustmentRequest' });
export type InternalAdminAdjustmentRequest = z.infer<typeof InternalAdminAdjustmentRequest>;

/** The path of the internal admin adjustment on the billing service. */
export const internalAdjustmentsPath = (userId: number) => `/internal/users/${userId}/adjustments`;

// ---------------------------------------------------------------------------------------------
// Payments

export const PaymentStatus = z.enum(['pending', 'pending_email', 'succeeded', 'canceled', 'failed', 'refunded'], {
  error: 'Статус платежа: pending, pending_email, succeeded, canceled, failed или refunded',
});
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** Russian labels of payment statuses (docs/product.md, States). */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Ожидает оплаты',
  pending_email: 'Ожидает e-mail',
  succeeded: 'Успешно',
  canceled: 'Отменён',
  failed: 'Ошибка',
  refunded: 'Возвращён',
};

/** The cancellation reason of a bot payment canceled because its receipt e-mail never came. */
export const PAYMENT_EMAIL_NOT_GIVEN = 'email_not_given';

/** How a payment was paid: a card through YooKassa (or its sandbox), or Telegram Stars in the bot. */
export const PaymentProvider = z.enum(['yookassa', 'telegram_stars'], {
  error: 'Способ оплаты: yookassa (картой) или telegram_stars (звёздами)',
});
export type PaymentProvider = z.infer<typeof PaymentProvider>;

/** Russian labels of the providers (the admin's filter and column). */
export const PAYMENT_PROVIDER_LABELS: Record<PaymentProvider, string> = {
  yookassa: 'Картой',
  telegram_stars: 'Звёздами',
};

/** Top-up amounts the bot and the site offer, in roubles: a Stars invoice is only ever made for one of these. */
export const TOP_UP_PACKAGES = ['100.00', '300.00', '500.00', '1000.00'] as const;

/** Whole stars (Telegram's XTR), as Telegram counts them. */
export const StarAmount = z.int().min(1).max(1_000_000);

/** A top-up buys credits for roubles; a tariff purchase sets the tariff for one month. */
export const PaymentKind = z.enum(['topup', 'tariff']);
export type PaymentKind = z.infer<typeof PaymentKind>;

/** A payment as the admin screen reads it (docs/product.md, Data). `payment_id` is our public payment id. */
export const Payment = z
  .object({
    id: Id,
    payment_id: z.string().meta({ description: 'Our payment id (idempotence key, provider metadata)' }),
    yookassa_payment_id: z.string().nullable().meta({ description: "The provider's own payment id" }),
    user_id: Id,
    username: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable().meta({ description: "The receipt e-mail, else the account's" }),
    user_email: z
      .string()
      .nullable()
      .meta({ description: "The payer's site account e-mail (null for a Telegram-only account)" }),
    kind: PaymentKind,
    tariff_id: Id.nullable(),
    amount: Money.meta({ description: 'Roubles' }),
    currency: z.literal('RUB'),
    credits_amount: CreditsAmount,
    status: PaymentStatus,
    description: z.string().nullable(),
    cancellation_reason: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    provider: PaymentProvider,
    star_amount: StarAmount.nullable().meta({ description: 'Stars paid (telegram_stars), null for cards' }),
    telegram_payment_charge_id: z.string().nullable(),
    refund_id: z.string().nullable().meta({ description: "The provider's refund id once refunded" }),
    refunded_at: IsoDateTime.nullable(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const ADMIN_PAYMENTS_SORT_FIELDS = [
  'id',
  'username',
  'payment_id',
  'amount',
  'credits_amount',
  'status',
  'created_at',
] as const;
export const AdminPaymentsSortField = z.enum(ADMIN_PAYMENTS_SORT_FIELDS);
export type AdminPaymentsSortField = z.infer<typeof AdminPaymentsSortField>;

/** `GET /api/admin/payments`: default sort created_at descending; empty status means all. */
export const AdminPaymentsQuery = listQuery({
  sortFields: ADMIN_PAYMENTS_SORT_FIELDS,
  defaultSort: { field: 'created_at', order: 'desc' },
}).extend({
  userId: QueryId,
  username: queryText(),
  status: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), PaymentStatus.optional()),
  provider: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), PaymentProvider.optional()),
});
export type AdminPaymentsQuery = z.infer<typeof AdminPaymentsQuery>;

export const AdminPaymentsResponse = z
  .object({ payments: z.array(Payment), total: z.int().min(0) })
  .meta({ id: 'AdminPaymentsResponse' });
export type AdminPaymentsResponse = z.infer<typeof AdminPaymentsResponse>;

export const PaymentIdParams = z.object({ id: IdParam });
export type PaymentIdParams = z.infer<typeof PaymentIdParams>;

/** Paths that name a payment by our public `payment_id` (user outcome page, bot e-mail). */
export const PublicPaymentIdParams = z.object({ id: z.string().min(1).max(64) });
export type PublicPaymentIdParams = z.infer<typeof PublicPaymentIdParams>;

/** Top-up amounts: 1 … 1 000 000 roubles, at most 2 decimals. */
export const TopUpAmountInput = decimalInput({
  scale: 2,
  min: '1',
  max: '1000000',
  messages: {
    invalid: 'Сумма должна быть числом',
    scale: 'Сумма: не более 2 знаков после запятой',
    min: 'Минимальная сумма пополнения 1 ₽',
    max: 'Максимальная сумма пополнения 1 000 000 ₽',
  },
});

const exactlyOneTarget = (body: { amount?: string; tariff_id?: number }) =>
  (body.amount === undefined) !== (body.tariff_id === undefined);
const exactlyOneTargetMessage = 'Укажите либо сумму пополнения, либо тариф';

/**
 * «Продлевать автоматически» (docs/money.md, Subscriptions): not ticked unless sent; ticked, the payment saves the card
 * (`save_payment_method`) and the consent text of `consent_version` is recorded with the time and the user.
 */
const autoRenewFields = {
  auto_renew: z.boolean().optional().meta({ description: 'Renew the tariff every month from the saved card' }),
  consent_version: z
    .string()
    .max(32)
    .optional()
    .meta({ description: 'The version of the consent text shown beside the tick (RENEWAL_CONSENT_VERSION)' }),
};
const autoRenewOnlyForTariff = (body: { auto_renew?: boolean; tariff_id?: number }) =>
  !body.auto_renew || body.tariff_id !== undefined;
const autoRenewOnlyForTariffMessage = 'Автопродление бывает только у тарифа';

/** `POST /api/billing/payments` (logged-in user): a top-up (`amount`) or a tariff (`tariff_id`). */
export const CreatePaymentRequest = z
  .object({
    amount: TopUpAmountInput.optional().meta({ description: 'Top-up in roubles' }),
    tariff_id: SerialId.optional().meta({ description: 'Tariff to buy for one month' }),
    ...autoRenewFields,
  })
  .refine(exactlyOneTarget, { error: exactlyOneTargetMessage, path: ['amount'] })
  .refine(autoRenewOnlyForTariff, { error: autoRenewOnlyForTariffMessage, path: ['auto_renew'] })
  .meta({ id: 'CreatePaymentRequest' });
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

/** `POST /api/bot/payments`: the same for a Telegram user; `email` is the receipt e-mail if known. */
export const BotCreatePaymentRequest = z
  .object({
    telegram_id: TelegramIdInput,
    amount: TopUpAmountInput.optional(),
    tariff_id: SerialId.optional(),
    email: emailInput('Введите email').optional(),
    ...autoRenewFields,
  })
  .refine(exactlyOneTarget, { error: exactlyOneTargetMessage, path: ['amount'] })
  .refine(autoRenewOnlyForTariff, { error: autoRenewOnlyForTariffMessage, path: ['auto_renew'] })
  .meta({ id: 'BotCreatePaymentRequest' });
export type BotCreatePaymentRequest = z.infer<typeof BotCreatePaymentRequest>;

/** Answer of payment creation: go to `confirmation_url` (null while the receipt e-mail is missing). */
export const CreatePaymentResponse = z
  .object({
    payment_id: z.string(),
    status: PaymentStatus,
    kind: PaymentKind,
    amount: Money,
    credits_amount: CreditsAmount,
    tariff_id: Id.nullable(),
    description: z.string(),
    confirmation_url: z.string().nullable(),
  })
  .meta({ id: 'CreatePaymentResponse' });
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>;

/** `PATCH /api/bot/payments/{id}/email`: supplies the receipt e-mail of a `pending_email` payment. */
export const BotPaymentEmailRequest = z.object({ email: emailInput('Введите email') }).meta({
  id: 'BotPaymentEmailRequest',
});
export type BotPaymentEmailRequest = z.infer<typeof BotPaymentEmailRequest>;

/** `GET /api/billing/payments/{id}`: the user's own payment, for the page shown after the provider. */
export const UserPayment = z
  .object({
    payment_id: z.string(),
    status: PaymentStatus,
    kind: PaymentKind,
    amount: Money,
    credits_amount: CreditsAmount,
    tariff_id: Id.nullable(),
    description: z.string().nullable(),
    email: z.string().nullable().meta({ description: 'The receipt e-mail (null while a bot payment waits for it)' }),
    cancellation_reason: z
      .string()
      .nullable()
      .meta({ description: "Why a canceled payment was canceled: the provider's reason, or email_not_given" }),
    provider: PaymentProvider,
    star_amount: StarAmount.nullable(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'UserPayment' });
export type UserPayment = z.infer<typeof UserPayment>;

/** `GET /api/bot/payments?telegram_id=`: a Telegram user's last payments (the bot's /paysupport). */
export const BotPaymentsQuery = z.object({ telegram_id: TelegramIdInput, limit: limitParam(5, 20) });
export type BotPaymentsQuery = z.infer<typeof BotPaymentsQuery>;

/** `GET /api/billing/payments`: the user's own payments, newest first, a page at a time. */
export const UserPaymentsQuery = z.object({ page: PageParam, limit: limitParam(10, 50) });
export type UserPaymentsQuery = z.infer<typeof UserPaymentsQuery>;

export const UserPaymentsResponse = z
  .object({ payments: z.array(UserPayment), total: z.int().min(0) })
  .meta({ id: 'UserPaymentsResponse' });
export type UserPaymentsResponse = z.infer<typeof UserPaymentsResponse>;

/** `POST /api/admin/payments/{id}/refund`: why (the admin app asks for it), kept in the audit log. */
export const RefundPaymentRequest = z.object({ reason: AuditReason.optional() }).meta({ id: 'RefundPaymentRequest' });
export type RefundPaymentRequest = z.infer<typeof RefundPaymentRequest>;

/** The admin app's refund confirmation: the reason is required there. */
export const RefundPaymentForm = z.object({ reason: AuditReason });

/** `POST /api/admin/payments/{id}/refund`: the refunded payment. */
export const RefundPaymentResponse = z
  .object({ success: z.literal(true), payment: Payment })
  .meta({ id: 'RefundPaymentResponse' });
export type RefundPaymentResponse = z.infer<typeof RefundPaymentResponse>;

// ---------------------------------------------------------------------------------------------
// Telegram Stars (the bot's invoices; billing quotes, checks and records them)

/**
 * `POST /api/bot/stars/invoices`: the bot asks for a Stars invoice of a top-up package or a paid
 * tariff. Billing prices it (⌈roubles / star_rate_rub⌉) and keeps the quote; its id is the
 * invoice payload, so what the client sends back is looked up, never believed.
 */
export const BotStarInvoiceRequest = z
  .object({
    telegram_id: TelegramIdInput,
    amount: z.enum(TOP_UP_PACKAGES, { error: 'Такого пакета пополнения нет' }).optional(),
    tariff_id: SerialId.optional(),
    subscription: z
      .boolean()
      .optional()
      .meta({ description: 'A Stars subscription of the tariff (an invoice link renewed by Telegram every 30 days)' }),
  })
  .refine(exactlyOneTarget, { error: exactlyOneTargetMessage, path: ['amount'] })
  .refine((body) => !body.subscription || body.tariff_id !== undefined, {
    error: 'Подписка бывает только на тариф',
    path: ['subscription'],
  })
  .meta({ id: 'BotStarInvoiceRequest' });
export type BotStarInvoiceRequest = z.infer<typeof BotStarInvoiceRequest>;

/** The one period of a Telegram Stars subscription (30 days, in seconds), and its highest price in stars. */
export const STAR_SUBSCRIPTION_PERIOD = 2_592_000;
export const STAR_SUBSCRIPTION_MAX_STARS = 10_000;

/**
 * What the bot puts in `sendInvoice` (currency XTR, an empty provider token, exactly one price), or, for a
 * subscription, in `createInvoiceLink` with `subscription_period`.
 */
export const BotStarInvoiceResponse = z
  .object({
    payload: z.string().max(128),
    title: z.string().max(32),
    description: z.string().max(255),
    label: z.string(),
    currency: z.literal('XTR'),
    star_amount: StarAmount,
    amount: Money.meta({ description: 'The rouble price the stars stand for' }),
    kind: PaymentKind,
    credits_amount: CreditsAmount,
    tariff_id: Id.nullable(),
    subscription_period: z
      .literal(STAR_SUBSCRIPTION_PERIOD)
      .nullable()
      .meta({ description: 'Set for a subscription: createInvoiceLink with this subscription_period' }),
  })
  .meta({ id: 'BotStarInvoiceResponse' });
export type BotStarInvoiceResponse = z.infer<typeof BotStarInvoiceResponse>;

/** `POST /api/bot/stars/pre-checkout`: the `pre_checkout_query` as Telegram sent it. */
export const BotStarPreCheckoutRequest = z
  .object({
    telegram_id: TelegramIdInput,
    invoice_payload: z.string().max(256),
    currency: z.string().max(8),
    total_amount: z.int().min(0),
  })
  .meta({ id: 'BotStarPreCheckoutRequest' });
export type BotStarPreCheckoutRequest = z.infer<typeof BotStarPreCheckoutRequest>;

/** `ok: false` carries the Russian `error_message` the bot passes to `answerPreCheckoutQuery`. */
export const BotStarPreCheckoutResponse = z
  .object({ ok: z.boolean(), error_message: z.string().optional() })
  .meta({ id: 'BotStarPreCheckoutResponse' });
export type BotStarPreCheckoutResponse = z.infer<typeof BotStarPreCheckoutResponse>;

/** `POST /api/bot/stars/payments`: the `successful_payment` of a message, recorded once per charge id. */
export const BotStarPaymentRequest = BotStarPreCheckoutRequest.extend({
  telegram_payment_charge_id: z.string().min(1).max(256),
  provider_payment_charge_id: z.string().max(256).optional(),
  is_recurring: z.boolean().optional().meta({ description: 'A payment of a Stars subscription' }),
  is_first_recurring: z.boolean().optional().meta({ description: 'The subscription’s first payment' }),
  subscription_expiration_date: z
    .int()
    .positive()
    .optional()
    .meta({ description: 'Unix time the paid period ends: the tariff’s end' }),
}).meta({ id: 'BotStarPaymentRequest' });
export type BotStarPaymentRequest = z.infer<typeof BotStarPaymentRequest>;

/**
 * Internal call of billing to the bot (`POST {BOT_URL}/internal/stars/refunds`, the admin's token
 * forwarded): the bot owns the Telegram connection and calls `refundStarPayment`.
 */
export const InternalStarRefundRequest = z
  .object({ telegram_id: TelegramId, telegram_payment_charge_id: z.string().min(1) })
  .meta({ id: 'InternalStarRefundRequest' });
export type InternalStarRefundRequest = z.infer<typeof InternalStarRefundRequest>;

export const internalStarRefundsPath = '/internal/stars/refunds';

// ---------------------------------------------------------------------------------------------
// Sandbox provider (no YooKassa keys: the embedded default confirms payments on a local page)

export const SandboxPaymentStatus = z.enum(['pending', 'succeeded', 'canceled']);
export type SandboxPaymentStatus = z.infer<typeof SandboxPaymentStatus>;

/** `GET /api/billing/sandbox/payments/{id}`: what the sandbox confirmation page shows. */
export const SandboxPayment = z
  .object({
    id: z.string(),
    status: SandboxPaymentStatus,
    amount: Money,
    description: z.string(),
    return_url: z.string(),
  })
  .meta({ id: 'SandboxPayment' });
export type SandboxPayment = z.infer<typeof SandboxPayment>;

/** `POST /api/billing/sandbox/payments/{id}/decision`: the payer pays or cancels. */
export const SandboxDecisionRequest = z
  .object({
    decision: z.enum(['succeeded', 'canceled'], { error: 'Решение: succeeded (оплатить) или canceled (отменить)' }),
    key: z
      .string()
      .max(128)
      .optional()
      .meta({ description: 'The `key` of the confirmation link; without it only the signed-in payer may decide' }),
  })
  .meta({ id: 'SandboxDecisionRequest' });
export type SandboxDecisionRequest = z.infer<typeof SandboxDecisionRequest>;

// ---------------------------------------------------------------------------------------------
// YooKassa API v3 (the provider's protocol, as billing and the tests' fake provider speak it)

export const YookassaAmount = z
  .object({ value: z.string().regex(/^\d+\.\d{2}$/), currency: z.string().length(3) })
  .meta({ id: 'YookassaAmount', example: { value: '350.00', currency: 'RUB' } });
export type YookassaAmount = z.infer<typeof YookassaAmount>;

export const YookassaPaymentStatus = z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']);
export type YookassaPaymentStatus = z.infer<typeof YookassaPaymentStatus>;

/** A payment object of the provider (extra fields pass through). */
export const YookassaPayment = z
  .looseObject({
    id: z.string(),
    status: YookassaPaymentStatus,
    paid: z.boolean(),
    amount: YookassaAmount,
    description: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    confirmation: z.looseObject({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
    cancellation_details: z.object({ party: z.string(), reason: z.string() }).optional(),
    payment_method: z
      .looseObject({
        type: z.string(),
        id: z.string(),
        saved: z.boolean(),
        title: z.string().optional(),
        card: z.looseObject({ last4: z.string(), expiry_month: z.string(), expiry_year: z.string() }).optional(),
      })
      .optional()
      .meta({ description: 'The way it was paid; `saved` when it may be charged again (autopayments)' }),
    created_at: z.string(),
    captured_at: z.string().optional(),
    test: z.boolean().optional(),
  })
  .meta({ id: 'YookassaPayment' });
export type YookassaPayment = z.infer<typeof YookassaPayment>;

/** `POST {YOOKASSA_API_URL}/payments` body (sent with Basic auth and an Idempotence-Key header). */
export const YookassaCreatePaymentRequest = z
  .looseObject({
    amount: YookassaAmount,
    capture: z.boolean(),
    confirmation: z
      .object({ type: z.literal('redirect'), return_url: z.string() })
      .optional()
      .meta({ description: 'Where the payer confirms; absent in an autopayment' }),
    save_payment_method: z.boolean().optional().meta({ description: 'Save the method for autopayments' }),
    payment_method_id: z.string().optional().meta({ description: 'Charge a saved method, with no confirmation' }),
    description: z.string().max(128),
    metadata: z.record(z.string(), z.string()),
    receipt: z
      .looseObject({
        customer: z.object({ email: z.string() }),
        items: z.array(
          z.looseObject({
            description: z.string().max(128),
            quantity: z.string(),
            amount: YookassaAmount,
            vat_code: z.int(),
          }),
        ),
      })
      .optional(),
  })
  .meta({ id: 'YookassaCreatePaymentRequest' });
export type YookassaCreatePaymentRequest = z.infer<typeof YookassaCreatePaymentRequest>;

/**
 * A notification the provider POSTs to `/api/billing/webhooks/yookassa`. Only `object.id` is
 * used: the payment is re-fetched from the provider's API and only that answer is believed.
 */
export const YookassaNotification = z
  .object({
    type: z.literal('notification'),
    event: z.string().min(1).meta({ example: 'payment.succeeded' }),
    object: z.looseObject({ id: z.string().min(1).max(100), status: z.string().optional() }),
  })
  .meta({ id: 'YookassaNotification' });
export type YookassaNotification = z.infer<typeof YookassaNotification>;

/** `POST {YOOKASSA_API_URL}/refunds` body (Idempotence-Key header; a receipt for 54-FZ). */
export const YookassaCreateRefundRequest = z
  .looseObject({
    payment_id: z.string(),
    amount: YookassaAmount,
    description: z.string().max(250).optional(),
    receipt: YookassaCreatePaymentRequest.shape.receipt,
  })
  .meta({ id: 'YookassaCreateRefundRequest' });
export type YookassaCreateRefundRequest = z.infer<typeof YookassaCreateRefundRequest>;

/** A refund object of the provider. */
export const YookassaRefund = z
  .looseObject({
    id: z.string(),
    payment_id: z.string(),
    status: z.enum(['pending', 'succeeded', 'canceled']),
    amount: YookassaAmount,
    created_at: z.string(),
    cancellation_details: z.object({ party: z.string(), reason: z.string() }).optional(),
  })
  .meta({ id: 'YookassaRefund' });
export type YookassaRefund = z.infer<typeof YookassaRefund>;
