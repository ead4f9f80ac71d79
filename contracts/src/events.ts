import { z } from 'zod';
import { UserRole } from './auth';
import { BalanceSnapshot, PaymentKind, PaymentProvider, StarAmount } from './billing';
import { MessageStatus } from './chat-history';
import { ReferralRewardedData } from './growth';
import { SubscriptionMethod, SubscriptionNoticeKind } from './subscriptions';
import { Credits, CreditsAmount, Id, IsoDateTime, Money, ServiceName, TelegramId, UsdAmount } from './common';

/**
 * Facts published on the `app.events` topic exchange (routing key = type). Every envelope is
 * checked with these schemas on publish and on consume. Events that carry a snapshot carry the
 * source's `version`; consumers ignore versions older than the one they hold.
 */

// ---------------------------------------------------------------------------------------------
// auth

/** The profile snapshot auth publishes; `version` grows with every change of the user. */
const UserSnapshot = z.object({
  user_id: Id,
  email: z.string().nullable(),
  role: UserRole,
  username: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  telegram_id: TelegramId.nullable(),
  telegram_username: z.string().nullable(),
  telegram_email: z.string().nullable().meta({ description: 'E-mail for payment receipts' }),
  utm_source: z.string().nullable(),
  referral_code: z.string().nullable().default(null).meta({ description: "The user's own referral code" }),
  referred_by: Id.nullable()
    .default(null)
    .meta({ description: 'Who invited the user (set at first contact only; null: nobody)' }),
  created_at: IsoDateTime,
  version: z.int().min(0),
});

export const UserRegisteredData = UserSnapshot.extend({
  source: z.enum(['web', 'telegram']).meta({ description: 'Signed up on the site or first seen by the bot' }),
}).meta({ id: 'UserRegisteredData' });
export type UserRegisteredData = z.infer<typeof UserRegisteredData>;

/**
 * The account is confirmed, once: by the e-mail link of a site sign-up, or at a bot user's first
 * /start. Billing gives the welcome grant from it; `ip` is the address the account signed up from
 * (null for bot users), which billing's per-address daily cap counts.
 */
export const UserConfirmedData = z
  .object({
    user_id: Id,
    at: IsoDateTime,
    via: z.enum(['email', 'telegram']).meta({ description: 'The e-mail link, or the first /start in the bot' }),
    ip: z
      .string()
      .max(64)
      .nullable()
      .default(null)
      .meta({ description: 'The sign-up address (null: unknown or the bot)' }),
  })
  .meta({ id: 'UserConfirmedData' });
export type UserConfirmedData = z.infer<typeof UserConfirmedData>;

export const UserUpdatedData = UserSnapshot.extend({ updated_at: IsoDateTime }).meta({ id: 'UserUpdatedData' });
export type UserUpdatedData = z.infer<typeof UserUpdatedData>;

export const UserDeletedData = z
  .object({ user_id: Id, email: z.string().nullable(), deleted_at: IsoDateTime, version: z.int().min(0) })
  .meta({ id: 'UserDeletedData' });
export type UserDeletedData = z.infer<typeof UserDeletedData>;

/**
 * A Telegram account was bound to web account `user_id`. When the Telegram user already had its
 * own account, `merged_user_id` names it: its balance, tariff, payments and messages move to
 * `user_id` and it ceases to exist.
 */
export const AccountsLinkedData = z
  .object({
    user_id: Id.meta({ description: 'The surviving web account' }),
    merged_user_id: Id.nullable().meta({ description: 'The Telegram-only account merged into it, if any' }),
    telegram_id: TelegramId,
    linked_at: IsoDateTime,
  })
  .meta({ id: 'AccountsLinkedData' });
export type AccountsLinkedData = z.infer<typeof AccountsLinkedData>;

/**
 * The owner of web account `user_id` (or an admin) unlinked its Telegram account. What was merged
 * stays with `user_id` (balance, payments, messages: docs/money.md, Linking); the Telegram user
 * goes on with a fresh Telegram-only account, `telegram_user_id`, announced as user.registered.
 */
export const AccountsUnlinkedData = z
  .object({
    user_id: Id.meta({ description: 'The web account that keeps everything' }),
    telegram_id: TelegramId,
    telegram_user_id: Id.meta({ description: 'The new Telegram-only account of that Telegram user' }),
    unlinked_at: IsoDateTime,
  })
  .meta({ id: 'AccountsUnlinkedData' });
export type AccountsUnlinkedData = z.infer<typeof AccountsUnlinkedData>;

/**
 * A recovery link was mailed for an account linked to Telegram: the bot tells the user's chat that
 * one was asked for (the link itself goes only to the account's e-mail); it is good until `expires_at`.
 */
export const PasswordResetRequestedData = z
  .object({
    user_id: Id,
    telegram_id: TelegramId,
    expires_at: IsoDateTime,
    reset_url: z.string().optional().meta({
      description: 'The link itself, only when the owner chose to get links in Telegram (else it was mailed)',
    }),
  })
  .meta({ id: 'PasswordResetRequestedData' });
export type PasswordResetRequestedData = z.infer<typeof PasswordResetRequestedData>;

// ---------------------------------------------------------------------------------------------
// billing

export const CreditsChangeReason = z.enum([
  'initial',
  'payment',
  'tariff_purchase',
  'message_charge',
  'admin_deposit',
  'admin_tariff',
  'merge',
  'tariff_expired',
  'tariff_updated',
  'hold_placed',
  'hold_released',
  'welcome_grant',
  'welcome_revoked',
  'payment_refund',
  'payment_refund_reverted',
  'referral_bonus',
  'referral_revoked',
  'promo_code',
  'promo_revoked',
]);
export type CreditsChangeReason = z.infer<typeof CreditsChangeReason>;

/** The balance after a change: snapshot, tariff, deposited total and version (see BalanceSnapshot). */
export const CreditsChangedData = BalanceSnapshot.extend({
  reason: CreditsChangeReason,
  reference: z.string().meta({ description: 'Ledger reference, e.g. payment:<id>, message:<id>, hold:<uuid>' }),
  changed_at: IsoDateTime,
}).meta({ id: 'CreditsChangedData' });
export type CreditsChangedData = z.infer<typeof CreditsChangedData>;

const PaymentFact = z.object({
  payment_id: z.string(),
  yookassa_payment_id: z.string().nullable(),
  user_id: Id,
  kind: PaymentKind,
  tariff_id: Id.nullable(),
  amount: Money.meta({ description: 'Roubles (for Stars: their rouble value when paid)' }),
  currency: z.literal('RUB'),
  provider: PaymentProvider.default('yookassa'),
  star_amount: StarAmount.nullable().default(null).meta({ description: 'Stars paid (telegram_stars)' }),
  subscription_id: Id.nullable()
    .default(null)
    .meta({ description: "A subscription's renewal: its owner hears of it by subscription.notice" }),
});

export const PaymentSucceededData = PaymentFact.extend({
  yookassa_payment_id: z.string().nullable().meta({ description: 'null for Stars' }),
  telegram_payment_charge_id: z.string().nullable().default(null),
  credits_amount: CreditsAmount.meta({ description: 'Credits granted (top-up) or included credits (tariff)' }),
  succeeded_at: IsoDateTime,
}).meta({ id: 'PaymentSucceededData' });
export type PaymentSucceededData = z.infer<typeof PaymentSucceededData>;

export const PaymentFailedData = PaymentFact.extend({
  reason: z.string(),
  failed_at: IsoDateTime,
}).meta({ id: 'PaymentFailedData' });
export type PaymentFailedData = z.infer<typeof PaymentFailedData>;

export const PaymentCanceledData = PaymentFact.extend({
  reason: z.string().nullable().meta({ description: 'cancellation_details.reason of the provider' }),
  party: z.string().nullable().meta({ description: 'cancellation_details.party of the provider' }),
  canceled_at: IsoDateTime,
}).meta({ id: 'PaymentCanceledData' });
export type PaymentCanceledData = z.infer<typeof PaymentCanceledData>;

/**
 * An admin refunded a succeeded payment: the provider returned the money (`refund_id`) and the
 * ledger took back what the payment gave (its credits, or the tariff and its included credits), and
 * billing's referral bonus for it too.
 */
export const PaymentRefundedData = PaymentFact.extend({
  credits_amount: CreditsAmount.meta({ description: 'Credits taken back' }),
  refund_id: z.string(),
  refunded_at: IsoDateTime,
}).meta({ id: 'PaymentRefundedData' });
export type PaymentRefundedData = z.infer<typeof PaymentRefundedData>;

/**
 * The payer gave an e-mail for receipts with a payment (the bot asks when there is none). Auth
 * owns the user's `telegram_email` and keeps it, so the next payment does not ask again.
 */
export const ReceiptEmailSuppliedData = z
  .object({ user_id: Id, email: z.email(), payment_id: z.string(), supplied_at: IsoDateTime })
  .meta({ id: 'ReceiptEmailSuppliedData' });
export type ReceiptEmailSuppliedData = z.infer<typeof ReceiptEmailSuppliedData>;

// ---------------------------------------------------------------------------------------------
// content

/**
 * An admin answered a contact-form request: the bot sends it to the user's chats (`telegram`), or auth
 * mails it to `email` (`email`); the answer is also in the user's account when `user_id` is set.
 */
export const SupportAnsweredData = z
  .object({
    request_id: Id,
    user_id: Id.nullable(),
    channel: z.enum(['telegram', 'email']),
    email: z.email().nullable(),
    subject: z.string(),
    answer: z.string(),
    answered_at: IsoDateTime,
  })
  .meta({ id: 'SupportAnsweredData' });
export type SupportAnsweredData = z.infer<typeof SupportAnsweredData>;

// ---------------------------------------------------------------------------------------------
// chat-history

export const MessageRecordedData = z
  .object({
    message_id: Id,
    user_id: Id,
    telegram_id: TelegramId.nullable(),
    username: z.string().nullable(),
    user_name: z.string().nullable().default(null).meta({
      description:
        'The person as the product names them everywhere (`personName`): username, else names, else Telegram id',
    }),
    model: z.string(),
    status: MessageStatus,
    input_tokens: z.int().min(0),
    output_tokens: z.int().min(0),
    input_cost: UsdAmount,
    output_cost: UsdAmount,
    total_cost: UsdAmount,
    cost: Credits.meta({ description: 'Credits to charge (0 for an error)' }),
    user_message: z.string(),
    bot_response: z.string().nullable(),
    error_message: z.string().nullable(),
    image_path: z.string().nullable(),
    image_count: z.int().min(0).default(0).meta({ description: 'Images the model generated' }),
    hold_id: z.uuid().nullable().default(null).meta({
      description: "The bot's hold for this call: billing charges at most its amount and settles it",
    }),
    created_at: IsoDateTime,
  })
  .meta({ id: 'MessageRecordedData' });
export type MessageRecordedData = z.infer<typeof MessageRecordedData>;

/**
 * A system setting (sys_vals) was created, changed or deleted (`value` null). `version` grows with
 * every change of any setting, so a projection keeps the newest value of each key.
 */
export const SettingChangedData = z
  .object({
    key: z.string(),
    value: z.string().nullable(),
    version: z.int().min(1),
    changed_at: IsoDateTime,
  })
  .meta({ id: 'SettingChangedData' });
export type SettingChangedData = z.infer<typeof SettingChangedData>;

/**
 * What billing tells a subscription's owner, in the bot and by e-mail (docs/money.md, Subscriptions): it started, it
 * renewed, a charge is coming (`reminder`), a charge was declined and will be retried (`declined`), the card can no
 * longer be charged (`card_needed`), it ended unpaid, or it was canceled. `notice_id` is unique per notice.
 */
export const SubscriptionNoticeData = z
  .object({
    notice_id: z.string(),
    kind: SubscriptionNoticeKind,
    subscription_id: Id,
    user_id: Id,
    method: SubscriptionMethod,
    tariff_name: z.string(),
    amount: Money.meta({ description: 'Roubles a month' }),
    star_amount: StarAmount.nullable(),
    paid_until: IsoDateTime,
    charge_at: IsoDateTime.nullable().meta({ description: 'The next charge (reminder) or retry (declined)' }),
    reason: z.string().nullable().meta({ description: "The provider's reason of a declined charge" }),
    card: z.string().nullable(),
    cancel_url: z.string().meta({ description: 'Where the owner cancels: the personal account' }),
    at: IsoDateTime,
  })
  .meta({ id: 'SubscriptionNoticeData' });
export type SubscriptionNoticeData = z.infer<typeof SubscriptionNoticeData>;

// ---------------------------------------------------------------------------------------------
// Registry and envelope

/** The data schema of every event type. */
export const eventSchemas = {
  'user.registered': UserRegisteredData,
  'user.confirmed': UserConfirmedData,
  'user.updated': UserUpdatedData,
  'user.deleted': UserDeletedData,
  'accounts.linked': AccountsLinkedData,
  'accounts.unlinked': AccountsUnlinkedData,
  'password_reset.requested': PasswordResetRequestedData,
  'credits.changed': CreditsChangedData,
  'payment.succeeded': PaymentSucceededData,
  'payment.failed': PaymentFailedData,
  'payment.canceled': PaymentCanceledData,
  'payment.refunded': PaymentRefundedData,
  'referral.rewarded': ReferralRewardedData,
  'receipt_email.supplied': ReceiptEmailSuppliedData,
  'support.answered': SupportAnsweredData,
  'message.recorded': MessageRecordedData,
  'setting.changed': SettingChangedData,
  'subscription.notice': SubscriptionNoticeData,
} as const satisfies Record<string, z.ZodType>;
export type EventSchemas = typeof eventSchemas;

const EVENT_TYPES = Object.keys(eventSchemas) as [keyof EventSchemas, ...(keyof EventSchemas)[]];

export const EventType = z.enum(EVENT_TYPES, { error: 'Неизвестный тип события' });
export type EventType = z.infer<typeof EventType>;

/** The data of event `T` after parsing. */
export type EventData<T extends EventType> = z.output<EventSchemas[T]>;
/** The data of event `T` as a producer writes it (fields with defaults may be left out). */
export type EventInput<T extends EventType> = z.input<EventSchemas[T]>;

/**
 * The envelope every event travels in, `{ id, type, occurredAt, producer, data }`, for a registry of
 * data schemas (the product's is `eventSchemas`; the bus's own tests bring theirs). `data` is
 * checked separately, against the schema of `type`.
 */
export interface Envelope<T extends string = string, D = unknown> {
  id: string;
  type: T;
  occurredAt: string;
  producer: string;
  data: D;
}

/** The zod schema of each event's `data`, by event type. */
export type EventSchemaMap = Record<string, z.ZodType>;

const envelopeOf = <T extends z.ZodType<string>, P extends z.ZodType<string>>(type: T, producer: P) =>
  z.object({ id: z.uuid(), type, occurredAt: IsoDateTime, producer, data: z.unknown() });

/** The product's envelope: a known event type from a known service. */
export const EventEnvelope = envelopeOf(EventType, ServiceName).meta({ id: 'EventEnvelope' });
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** Any registry's envelope, as the bus reads it before it knows the registry has the type. */
const AnyEnvelope = envelopeOf(z.string().min(1), z.string().min(1));

/** An envelope of event `T` with its typed data (a union over all types by default). */
export type AppEvent<T extends EventType = EventType> = T extends EventType
  ? { id: string; type: T; occurredAt: string; producer: ServiceName; data: EventData<T> }
  : never;

function schemaOf(schemas: EventSchemaMap, type: string): z.ZodType | undefined {
  return Object.hasOwn(schemas, type) ? schemas[type] : undefined;
}

/**
 * Validates `data` against the schema of `type` and wraps it (a new uuid and now, unless given);
 * throws the ZodError of a bad payload.
 */
export function makeEnvelope(
  schemas: EventSchemaMap,
  producer: string,
  type: string,
  data: unknown,
  options: { id?: string; occurredAt?: string } = {},
): Envelope {
  const schema = schemaOf(schemas, type);
  if (!schema) throw new Error(`Unknown event type "${type}": it has no schema`);
  return {
    id: options.id ?? crypto.randomUUID(),
    type,
    occurredAt: options.occurredAt ?? new Date().toISOString(),
    producer,
    data: schema.parse(data),
  };
}

export type ParsedMessage = { ok: true; envelope: Envelope } | { ok: false; reason: string; envelope: Envelope };

/**
 * Reads a message body as an envelope whose data fits its type's schema. A message that does
 * not is poisoned: retrying cannot fix it. Its `envelope` is then a best-effort reading for logs.
 */
export function parseMessage(schemas: EventSchemaMap, body: string): ParsedMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'poisoned: the body is not JSON', envelope: bestEffort(body) };
  }
  const envelope = AnyEnvelope.safeParse(json);
  if (!envelope.success) {
    return { ok: false, reason: `poisoned: bad envelope: ${summarize(envelope.error)}`, envelope: bestEffort(json) };
  }
  const schema = schemaOf(schemas, envelope.data.type);
  if (!schema) {
    return { ok: false, reason: `poisoned: unknown event type "${envelope.data.type}"`, envelope: envelope.data };
  }
  const data = schema.safeParse(envelope.data.data);
  if (!data.success) {
    return { ok: false, reason: `poisoned: bad data: ${summarize(data.error)}`, envelope: envelope.data };
  }
  return { ok: true, envelope: { ...envelope.data, data: data.data } };
}

/** Checks a product envelope and its data against the schema of its type; throws a ZodError otherwise. */
export function parseEvent(input: unknown): AppEvent {
  const envelope = EventEnvelope.parse(input);
  const data: unknown = eventSchemas[envelope.type].parse(envelope.data);
  return { ...envelope, data } as AppEvent;
}

function summarize(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

function bestEffort(value: unknown): Envelope {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text = (key: string) => (typeof record[key] === 'string' ? record[key] : '');
  return {
    id: text('id'),
    type: text('type'),
    occurredAt: text('occurredAt'),
    producer: text('producer'),
    data: 'data' in record ? record.data : value,
  };
}

/** The service that publishes each event type (the only one whose outbox writes it). */
export const eventProducers = {
  'user.registered': 'auth',
  'user.confirmed': 'auth',
  'user.updated': 'auth',
  'user.deleted': 'auth',
  'accounts.linked': 'auth',
  'accounts.unlinked': 'auth',
  'password_reset.requested': 'auth',
  'credits.changed': 'billing',
  'payment.succeeded': 'billing',
  'payment.failed': 'billing',
  'payment.canceled': 'billing',
  'payment.refunded': 'billing',
  'referral.rewarded': 'billing',
  'receipt_email.supplied': 'billing',
  'support.answered': 'content',
  'message.recorded': 'chat-history',
  'setting.changed': 'chat-history',
  'subscription.notice': 'billing',
} as const satisfies Record<EventType, ServiceName>;

/**
 * Which events each service's queue receives. Every service declares all of these queues when it
 * connects, so an event published before its consumer first ran waits for it (no lost events on a
 * first deploy). A service whose code consumes a type not listed here refuses to start.
 */
export const eventSubscriptions = {
  auth: ['credits.changed', 'message.recorded', 'receipt_email.supplied', 'support.answered', 'subscription.notice'],
  content: ['user.registered', 'user.updated', 'user.deleted'],
  billing: [
    'user.registered',
    'user.confirmed',
    'user.updated',
    'user.deleted',
    'accounts.linked',
    'message.recorded',
    'setting.changed',
    'payment.succeeded',
    'payment.refunded',
  ],
  'chat-history': ['user.registered', 'user.updated', 'user.deleted', 'accounts.linked'],
  metrics: [
    'user.registered',
    'user.deleted',
    'accounts.linked',
    'payment.succeeded',
    'payment.refunded',
    'message.recorded',
  ],
  bot: [
    'payment.succeeded',
    'payment.canceled',
    'payment.failed',
    'payment.refunded',
    'credits.changed',
    'accounts.linked',
    'accounts.unlinked',
    'password_reset.requested',
    'referral.rewarded',
    'support.answered',
    'subscription.notice',
  ],
} as const satisfies Record<ServiceName, readonly EventType[]>;
