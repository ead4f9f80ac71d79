import type { BusTables } from '@gpt/kit';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** int8 comes back as a string; written as a number or a string. */
type Int8 = ColumnType<string, number | string, number | string>;
type NullableInt8 = ColumnType<string | null, number | string | null, number | string | null>;

/** One Telegram user the bot talks to (private chats: the chat id is the user id). */
export interface ChatsTable {
  telegram_id: Int8;
  /** Our user id (auth), re-pointed when the account is linked to a web account. */
  user_id: number;
  chat_id: Int8;
  /** The Telegram account is linked to a web account (one shared balance). */
  web_linked: boolean;
  /** The chosen model; null: the default_model setting. */
  model: string | null;
  /** A low-balance alert was sent and the balance has not been above the threshold since. */
  low_balance_alerted: Generated<boolean>;
  /** What the bot waits for the user to type: their instructions, or a payment's receipt e-mail; null: nothing. */
  awaiting: 'instructions' | 'receipt_email' | null;
  /** Our payment id whose receipt e-mail is awaited (with `awaiting` = receipt_email only). */
  awaiting_payment_id: string | null;
  /** The user blocked the bot (Telegram answered 403): nothing more is sent until they write again. */
  blocked_at: Date | null;
  /** Auth has not yet stored the current blocked mark (set or cleared): the report is sent again. */
  blocked_unreported: Generated<boolean>;
  /** The chosen chat mode (chat-history's id); null or gone: the default mode. */
  mode_id: number | null;
  /** Answers also come as voice messages. */
  voice_replies: Generated<boolean>;
  /** The user's own instructions, added after the mode's prompt in every call. */
  instructions: string | null;
  /** When the user last wrote to the bot (kept to the hour), for a broadcast's audience; null: not since migration 0070. */
  last_active_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** A conversation of a user (either door); the user's current one is the last used (updated_at). */
export interface ConversationsTable {
  id: string;
  user_id: number;
  /** From the first question, or the user's; null: none yet («Новый чат»). */
  title: string | null;
  last_door: 'telegram' | 'web';
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** One message of a conversation: a question, or an answer (while `streaming`, its text so far). */
export interface ConversationMessagesTable {
  id: string;
  seq: Generated<Int8>;
  conversation_id: string;
  user_id: number;
  role: 'user' | 'assistant';
  text: string;
  model: string | null;
  /** The answer's credits. */
  cost: number | null;
  door: 'telegram' | 'web';
  status: 'done' | 'streaming' | 'stopped' | 'failed';
  /** «Остановить» was pressed where the answer's process could not be reached directly. */
  stop_requested: Generated<boolean>;
  created_at: Generated<Date>;
}

/** The web chat's model, mode and instructions of a user without a Telegram chat (with one: the chat's). */
export interface ChatPreferencesTable {
  user_id: number;
  model: string | null;
  mode_id: number | null;
  instructions: string | null;
}

/** An answer being generated: its placeholder and hold, so a restart can resolve it when its process died. */
export interface GenerationsTable {
  id: string;
  /** The process generating it (its heartbeat in Redis says whether it is alive). */
  owner: string;
  /** The Telegram user and chat; null for an answer asked on the web. */
  telegram_id: NullableInt8;
  chat_id: NullableInt8;
  /** The conversation message the answer streams into. */
  answer_id: string | null;
  /** The placeholder message, once sent. */
  message_id: number | null;
  hold_id: string;
  started_at: Generated<Date>;
}

/**
 * A webhook update as received: Telegram's redelivery of it is acknowledged and skipped, and the
 * updates of one chat are handled in update order by whichever replica holds that chat's lock.
 */
export interface WebhookUpdatesTable {
  update_id: Int8;
  chat_id: Int8;
  payload: ColumnType<unknown, string, string>;
  handled_at: Date | null;
  received_at: Generated<Date>;
}

/** An admin's broadcast (docs/bot.md, Broadcasts); its figures are counted from its deliveries. */
export interface BroadcastsTable {
  id: Generated<number>;
  status: 'scheduled' | 'sending' | 'paused' | 'canceled' | 'done';
  content: ColumnType<unknown, string, string>;
  audience: ColumnType<unknown, string, string>;
  send_at: Timestamp;
  created_by: number;
  created_by_name: string;
  /** Recipients, fixed when sending starts. */
  total: number | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

/**
 * One recipient of a broadcast: claimed (`sending`, with the claiming process) before the message goes to
 * Telegram, then `sent`, `blocked` or `failed` (`retry` until the third try); the pair is unique.
 */
export interface BroadcastDeliveriesTable {
  broadcast_id: number;
  telegram_id: Int8;
  status: Generated<'pending' | 'sending' | 'sent' | 'blocked' | 'failed' | 'retry'>;
  attempts: Generated<number>;
  owner: string | null;
  /** A failed delivery's next try. */
  next_at: Date | null;
  sent_at: Date | null;
  error: string | null;
}

export interface BotDatabase extends BusTables {
  chats: ChatsTable;
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
  chat_preferences: ChatPreferencesTable;
  generations: GenerationsTable;
  webhook_updates: WebhookUpdatesTable;
  broadcasts: BroadcastsTable;
  broadcast_deliveries: BroadcastDeliveriesTable;
}
