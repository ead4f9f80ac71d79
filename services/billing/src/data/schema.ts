import type { ReconciliationDifference, ReconciliationReport } from '@gpt/contracts';
import type { BusTables } from '@gpt/kit';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** bigint: read as a string (exact), written as a number, bigint or string. */
type BigIntColumn = ColumnType<string, string | number | bigint, string | number | bigint>;
type GeneratedBigInt = ColumnType<string, string | number | bigint | undefined, string | number | bigint>;
type NullableBigInt = ColumnType<string | null, string | number | null | undefined, string | number | null>;
/** numeric: roubles read and written as exact decimal strings. */
type Numeric = ColumnType<string, string | undefined, string>;

export interface TariffsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** numeric(12,2): roubles, exact, as a string. */
  monthly_price: string;
  credits_per_ruble: number;
  /** bigint, as a string. */
  included_credits: ColumnType<string, string | number, string | number>;
  can_generate_images: boolean;
  is_active: boolean;
  /** The plan every user starts on and falls back to (Base). */
  is_default: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Billing's projection of auth's users: who pays, and the names the payments screen shows. */
export interface UsersTable {
  id: number;
  email: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  telegram_id: ColumnType<string | null, string | number | null, string | number | null>;
  telegram_email: string | null;
  /** auth's version of the user; older snapshots are ignored. */
  version: number;
  /** Set when the account was merged into another on linking: charges and payments go there. */
  merged_into: number | null;
  /** The user's own referral code (auth's). */
  referral_code: string | null;
  /** Who invited the user, as auth says (migration 0020). */
  referred_by: number | null;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BalancesTable {
  user_id: number;
  credits: GeneratedBigInt;
  included_credits: GeneratedBigInt;
  tariff_id: number;
  tariff_end_date: NullableTimestamp;
  money_deposited: Numeric;
  /** The welcome grant this balance holds (0: none). */
  welcome_credits: GeneratedBigInt;
  /** The paid tariff that comes back when a promo code's higher tariff ends (null: none waits). */
  resume_tariff_id: ColumnType<number | null, number | null | undefined, number | null>;
  resume_seconds: NullableBigInt;
  resume_included_credits: NullableBigInt;
  /** Grows by one with every change; credits.changed carries it. */
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** chat-history's settings as its `setting.changed` events tell them (only the keys billing needs). */
export interface SettingsTable {
  key: string;
  /** null: the setting was deleted. */
  value: string | null;
  /** chat-history's version of the change; older changes are ignored. */
  version: BigIntColumn;
  updated_at: Timestamp;
}

/** One row per welcome grant: the address its account signed up from (null: a bot user), migration 0021. */
export interface WelcomeGrantsTable {
  user_id: number;
  address: string | null;
  granted_at: Timestamp;
}

export type LedgerBucket = 'included' | 'credits';

export interface LedgerEntriesTable {
  id: Generated<string>;
  user_id: number;
  reference: string;
  bucket: LedgerBucket;
  amount: BigIntColumn;
  balance_after: BigIntColumn;
  reason: string;
  admin_id: number | null;
  payment_id: number | null;
  tariff_id: number | null;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** The bonus one of a friend's payments earned the inviter; revoked (in part) when the payment is refunded. */
export interface ReferralRewardsTable {
  payment_id: string;
  referrer_id: number;
  friend_id: number;
  credits: BigIntColumn;
  /** Taken back on refund. */
  revoked_credits: ColumnType<string, string | number | undefined, string | number>;
  /** Of the bonus to take back, what the inviter had already spent (never taken below zero). */
  lost_credits: ColumnType<string, string | number | undefined, string | number>;
  /** Of the bonus to take back, what the inviter's holds kept at the refund: taken when they end. */
  pending_credits: ColumnType<string, string | number | undefined, string | number>;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface PromoCodesTable {
  id: Generated<number>;
  /** Upper case, unique. */
  code: string;
  kind: 'credits' | 'tariff';
  credits: ColumnType<string | null, number | null, number | null>;
  tariff_id: number | null;
  tariff_days: number | null;
  max_uses: number;
  used_count: ColumnType<number, number | undefined, number>;
  valid_from: NullableTimestamp;
  valid_until: NullableTimestamp;
  is_active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One person's use of a promo code (the balance holder: a linked site and Telegram account are one). */
export interface PromoRedemptionsTable {
  id: Generated<number>;
  promo_code_id: number;
  user_id: number;
  redeemed_at: Timestamp;
}

export type HoldStatus = 'active' | 'settled' | 'released' | 'expired';

/** Credits the bot reserved before a model call (see migration 0003). */
export interface HoldsTable {
  id: string;
  /** The balance holder (a merged account's survivor). */
  user_id: number;
  amount: BigIntColumn;
  status: HoldStatus;
  expires_at: Timestamp;
  created_at: Timestamp;
  /** When it was settled, released or marked expired. */
  settled_at: NullableTimestamp;
  /** The recorded message that settled or released it. */
  message_id: ColumnType<string | null, number | null | undefined, number | null>;
}

export type PaymentStatusColumn = 'pending' | 'pending_email' | 'succeeded' | 'canceled' | 'failed' | 'refunded';

export interface PaymentsTable {
  id: Generated<number>;
  payment_id: string;
  yookassa_payment_id: string | null;
  user_id: number;
  kind: 'topup' | 'tariff';
  tariff_id: number | null;
  amount: string;
  currency: ColumnType<string, string | undefined, string>;
  credits_amount: BigIntColumn;
  status: PaymentStatusColumn;
  description: string;
  email: string | null;
  confirmation_url: string | null;
  source: 'web' | 'bot';
  metadata: JSONColumnType<Record<string, string> | null, string | null, string | null>;
  cancellation_party: string | null;
  cancellation_reason: string | null;
  failure_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  succeeded_at: NullableTimestamp;
  provider: ColumnType<'yookassa' | 'telegram_stars', 'yookassa' | 'telegram_stars' | undefined>;
  star_amount: number | null;
  telegram_payment_charge_id: string | null;
  refund_id: string | null;
  refunded_at: NullableTimestamp;
  /** Set while a refund's credits are taken back and the provider is being asked (see migration 0010). */
  refund_started_at: NullableTimestamp;
  refund_attempt: Generated<number>;
  /** The provider's Idempotence-Key of the refund try under way (see migration 0041). */
  refund_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** «Продлевать автоматически» was ticked: the card is saved and a subscription starts when it succeeds (0080). */
  auto_renew: Generated<boolean>;
  /** A renewal's subscription, period and try (unique together). */
  subscription_id: ColumnType<number | null, number | null | undefined, number | null>;
  renewal_period: ColumnType<number | null, number | null | undefined, number | null>;
  renewal_try: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The consent «Продлевать автоматически» as it was given (see migration 0080). */
export interface SubscriptionConsentsTable {
  id: Generated<number>;
  user_id: number;
  tariff_id: number;
  payment_id: string;
  version: string;
  text: string;
  source: 'web' | 'bot';
  given_at: Timestamp;
}

/** A renewing tariff (see migration 0080). */
export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  tariff_id: number;
  method: 'card' | 'telegram_stars';
  status: 'active' | 'past_due' | 'canceled' | 'ended';
  price: string;
  star_price: number | null;
  payment_method_id: string | null;
  card_last4: string | null;
  telegram_charge_id: string | null;
  /** A Stars subscription's invoice (its payload comes with every renewal; see migration 0081). */
  star_invoice_id: ColumnType<string | null, string | null | undefined, string | null>;
  consent_id: number | null;
  first_payment_id: number;
  paid_until: Timestamp;
  periods_paid: Generated<number>;
  attempt: Generated<number>;
  first_declined_at: NullableTimestamp;
  retry_at: NullableTimestamp;
  grace_until: NullableTimestamp;
  last_failure: string | null;
  last_failure_at: NullableTimestamp;
  needs_new_card: Generated<boolean>;
  reminded_period: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  canceled_at: NullableTimestamp;
  ended_at: NullableTimestamp;
}

/** The price of a Stars invoice the bot sent; its id is the invoice payload. */
export interface StarInvoicesTable {
  id: string;
  user_id: number;
  kind: 'topup' | 'tariff';
  tariff_id: number | null;
  amount: string;
  credits_amount: BigIntColumn;
  star_amount: number;
  description: string;
  created_at: Timestamp;
  /** A Stars subscription's invoice (subscription_period 30 days; see migration 0080). */
  subscription: Generated<boolean>;
}

export interface SandboxPaymentsTable {
  id: string;
  idempotence_key: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: string;
  currency: string;
  description: string;
  metadata: JSONColumnType<Record<string, string>, string, string>;
  return_url: string;
  receipt_email: string | null;
  cancellation_party: string | null;
  cancellation_reason: string | null;
  created_at: Timestamp;
  captured_at: NullableTimestamp;
  save_payment_method: Generated<boolean>;
  /** The saved method a payment saved (its own id) or charged. */
  payment_method_id: string | null;
}

/** The tables of the billing database, as Kysely sees them. */
/** Each reconciliation with the providers (see migration 0043). */
export interface ReconciliationReportsTable {
  id: Generated<number>;
  started_at: Timestamp;
  since: Timestamp;
  sources: JSONColumnType<ReconciliationReport['sources'], string, string>;
  differences: JSONColumnType<ReconciliationDifference[], string, string>;
}

export interface BillingDatabase extends BusTables {
  tariffs: TariffsTable;
  users: UsersTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  holds: HoldsTable;
  payments: PaymentsTable;
  sandbox_payments: SandboxPaymentsTable;
  star_invoices: StarInvoicesTable;
  settings: SettingsTable;
  referral_rewards: ReferralRewardsTable;
  promo_codes: PromoCodesTable;
  promo_redemptions: PromoRedemptionsTable;
  welcome_grants: WelcomeGrantsTable;
  reconciliation_reports: ReconciliationReportsTable;
  subscriptions: SubscriptionsTable;
  subscription_consents: SubscriptionConsentsTable;
}
