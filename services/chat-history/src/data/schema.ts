import type { BusTables, MediaTables } from '@gpt/kit';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** int8 comes back as a string; written as a number or a string. */
type Int8 = ColumnType<string, number | string, number | string>;
type GeneratedInt8 = ColumnType<string, number | string | undefined, number | string>;

export interface AiModelsTable {
  id: Generated<number>;
  model: string;
  description: string | null;
  /** numeric(16,6): dollars per 1M tokens, exact, as a string. */
  input_price_per_1m: string;
  output_price_per_1m: string;
  /** numeric(16,6): dollars per generated image; null for a model that makes none. */
  image_price: ColumnType<string | null, string | null | undefined, string | null>;
  /** numeric(16,6): dollars per minute of transcribed audio; null for a model that does not transcribe. */
  transcription_price_per_minute: ColumnType<string | null, string | null | undefined, string | null>;
  /** numeric(16,6): dollars per 1 000 characters read aloud; null for a model that does not speak. */
  speech_price_per_1k_chars: ColumnType<string | null, string | null | undefined, string | null>;
  is_active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SysValsTable {
  id: Generated<number>;
  key: string;
  value: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** From the sequence sys_vals_version, new at every change. */
  version: GeneratedInt8;
}

/** A chat mode: the system prompt a user's calls start with; exactly one is the default. */
export interface ChatModesTable {
  id: Generated<number>;
  name: string;
  emoji: string;
  description: string;
  system_prompt: string;
  is_active: boolean;
  sort_order: number;
  is_default: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The users directory: auth's users as its events describe them. */
export interface DirectoryUsersTable {
  user_id: number;
  telegram_id: Int8 | null;
  email: string | null;
  username: string | null;
  telegram_username: string | null;
  first_name: string | null;
  last_name: string | null;
  /** The version of auth's snapshot applied last; -1 for a row known only from accounts.linked. */
  version: number;
  deleted_at: Timestamp | null;
  /** Set when accounts.linked merged this user into another one. */
  merged_into: number | null;
}

export interface MessagesTable {
  id: GeneratedInt8;
  user_id: number;
  telegram_id: Int8 | null;
  model: string;
  status: 'success' | 'error';
  /** Where the user asked: the bot or the web chat. */
  door: ColumnType<'telegram' | 'web', 'telegram' | 'web' | undefined, 'telegram' | 'web'>;
  user_message: string;
  bot_response: string | null;
  error_message: string | null;
  image_id: string | null;
  input_tokens: number;
  output_tokens: number;
  /** The model's prices when the message was recorded (numeric(16,6)). */
  input_price_per_1m: string;
  output_price_per_1m: string;
  /** numeric(30,12): dollars, exact. */
  input_cost: string;
  output_cost: string;
  total_cost: string;
  /** Credits (int8). */
  cost: Int8;
  /** Images the model generated (priced at the model's image price). */
  image_count: ColumnType<number, number | undefined, number>;
  /** The billing hold the bot placed before the call (billing settles it from message.recorded). */
  hold_id: string | null;
  /** The chat mode the user was in (its name then). */
  mode: ColumnType<string | null, string | null | undefined, string | null>;
  /** Seconds of a voice message transcribed, and what that cost (numeric(30,12), part of total_cost). */
  audio_seconds: ColumnType<number, number | undefined, number>;
  transcription_cost: ColumnType<string, string | undefined, string>;
  /** Characters of the answer read aloud, and what that cost (part of total_cost). */
  speech_characters: ColumnType<number, number | undefined, number>;
  speech_cost: ColumnType<string, string | undefined, string>;
  /** The bot's Idempotency-Key, so a retried request records the message once. */
  idempotency_key: string | null;
  created_at: Timestamp;
}

/** Messages per user, kept by triggers on messages. */
export interface MessageCountsTable {
  user_id: number;
  n: Int8;
}

/** Messages per hour of created_at (`message_hour()`), kept by triggers on messages. */
export interface MessageHoursTable {
  hour: Timestamp;
  n: Int8;
}

/** The tables of the chat-history database, as Kysely sees them. */
export interface ChatHistoryDatabase extends BusTables, MediaTables {
  ai_models: AiModelsTable;
  chat_modes: ChatModesTable;
  sys_vals: SysValsTable;
  directory_users: DirectoryUsersTable;
  messages: MessagesTable;
  message_counts: MessageCountsTable;
  message_hours: MessageHoursTable;
}
