import type { BusTables } from '@gpt/kit';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** int8 comes back as a string; written as a number or a string. */
type Int8 = ColumnType<string, number | string, number | string>;

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
  /** The current conversation; /new starts the next one. */
  conversation: Generated<number>;
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
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** One message of a conversation, kept so the model sees the conversation so far. */
export interface TurnsTable {
  id: Generated<number>;
  telegram_id: Int8;
  conversation: number;
  role: 'user' | 'assistant';
  content: string;
  created_at: Generated<Date>;
}

/** An answer being generated: its placeholder and hold, so a restart can resolve it when its process died. */
export interface GenerationsTable {
  id: string;
  /** The process generating it (its heartbeat in Redis says whether it is alive). */
  owner: string;
  telegram_id: Int8;
  chat_id: Int8;
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

export interface BotDatabase extends BusTables {
  chats: ChatsTable;
  turns: TurnsTable;
  generations: GenerationsTable;
  webhook_updates: WebhookUpdatesTable;
}
