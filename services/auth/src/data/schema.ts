import type { BusTables } from '@gpt/kit';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** int8 and numeric come back from the driver as strings. */
type DecimalColumn = ColumnType<string, string | number | undefined, string | number>;

export interface UsersTable {
  id: Generated<number>;
  /** Lowercased; null for a Telegram-only account. */
  email: string | null;
  password_hash: string | null;
  role: ColumnType<'admin' | 'user', 'admin' | 'user' | undefined, 'admin' | 'user'>;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  utm_source: string | null;
  /** The user's own referral code, upper case, unique (migration 0020). */
  referral_code: string;
  /** Who invited the user; set when the account is created, never changed (linking may drop a self-referral). */
  referred_by: number | null;
  telegram_language: string | null;
  /** bigint, as a string. */
  telegram_id: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  telegram_username: string | null;
  /** Password-reset links go to this Telegram account while it is the linked one (migration 0051). */
  reset_telegram_id: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** E-mail for payment receipts. */
  telegram_email: string | null;
  /** The user has blocked the bot since then, as the bot reported (migration 0031); null: not blocked. */
  telegram_blocked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The user turned the bot's broadcasts off (migration 0070). */
  news_opt_out: ColumnType<boolean, boolean | undefined, boolean>;
  /** Bumped to revoke every token issued before. */
  token_version: ColumnType<number, number | undefined, number>;
  /** Grows with every change, so projections elsewhere never go backwards. */
  version: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the account was confirmed (the e-mail link; bot and admin accounts at creation); null: not yet (migration 0021). */
  email_confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The client address a site sign-up came from (billing caps welcome grants per address). */
  registration_ip: string | null;
  // Projection of billing's `credits.changed` (see migration 0003).
  credits: DecimalColumn;
  included_credits: DecimalColumn;
  /** Reserved by billing's active holds (migration 0004). */
  held_credits: DecimalColumn;
  /** The welcome grant billing reports for this balance (0: none). */
  welcome_credits: DecimalColumn;
  tariff_id: number | null;
  tariff_name: ColumnType<string, string | undefined, string>;
  monthly_price: DecimalColumn;
  tariff_end_date: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  money_deposited: DecimalColumn;
  /** The billing version last applied; null until billing reported. */
  billing_version: number | null;
  // Projection of chat-history's `message.recorded`.
  money_spent: DecimalColumn;
  messages_count: ColumnType<number, number | undefined, number>;
}

export interface LinkTokensTable {
  id: Generated<number>;
  /** SHA-256 of the token (hex); the token itself is never stored. */
  token_hash: string;
  telegram_id: ColumnType<string, string | number, string | number>;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  used_by: number | null;
  /** The Telegram account's profile photo (a data URL) the bot sent with the link (migration 0052). */
  photo: string | null;
  created_at: Timestamp;
}

/** A table of single-use links (password recovery, e-mail confirmation). */
export interface SingleUseTokensTable {
  id: Generated<number>;
  /** SHA-256 of the token (hex); the token itself is never stored. */
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

/** The tables of the auth database, as Kysely sees them. */
export interface AuthDatabase extends BusTables {
  users: UsersTable;
  link_tokens: LinkTokensTable;
  password_reset_tokens: SingleUseTokensTable;
  email_confirmation_tokens: SingleUseTokensTable;
  sign_in_tokens: SingleUseTokensTable;
}
