import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BotCommand, InlineKeyboardMarkup, Message, SuccessfulPayment, Update, UserFromGetMe } from 'grammy/types';
import type { FloodLimits } from './flood-control';
import type { BotApiError } from './params';

/* What the sandbox Bot API offers and takes; its parts (updates, messages, files, payments) each build a piece. */

/** A Telegram user as the sandbox plays them; the private chat with the bot has the user's id. */
export interface SandboxUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** One Bot API call, as received and then answered. */
export interface BotApiCall {
  method: string;
  /** The parameters as Telegram reads them, whatever the body encoding (numbers and JSON fields decoded). */
  params: Record<string, unknown>;
  at: number;
  ok: boolean;
  result?: unknown;
  error?: { error_code: number; description: string };
}

/** Watches the calls the bot makes (tests record them and make some fail). */
export interface BotApiObserver {
  received?(call: BotApiCall): void;
  /** A refusal to answer this call with instead of handling it. */
  fault?(call: BotApiCall): BotApiError | undefined;
  answered?(call: BotApiCall): void;
}

/** A message as the user sees it in the chat now, after edits and without deleted ones. */
export interface ChatLogEntry {
  message_id: number;
  from: 'user' | 'bot';
  /** The visible text (a caption for media), formatting applied. */
  text: string;
  reply_markup?: InlineKeyboardMarkup;
  message: Message;
}

export interface StoredFileInfo {
  file_id: string;
  file_unique_id: string;
  file_size: number;
  file_path: string;
}

export interface StoredFile extends StoredFileInfo {
  bytes: Buffer;
  mime: string;
  name?: string;
  /** The chat it was sent in; undefined for a file added outside any chat. */
  chatId?: number;
}

export interface SandboxBotApi {
  token: string;
  me: UserFromGetMe;
  /** The commands set with setMyCommands (default scope). */
  readonly commands: BotCommand[];
  readonly webhook: { url: string; secret_token?: string } | null;
  /**
   * The Bot API over HTTP, at paths relative to its root: `/bot<token>/<method>` and the file
   * downloads `/file/bot<token>/<file_path>`; anything else is Telegram's 404.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  addFile(bytes: Buffer, options?: { mime?: string; name?: string }): StoredFileInfo;
  /** Gives a user of the sandbox a profile photo (a JPEG, `size` pixels square), newest first in getUserProfilePhotos. */
  setProfilePhoto(userId: number, jpeg: Buffer, size?: number): void;
  file(fileId: string): StoredFile | undefined;
  /** Text from the user; with `replyTo`, as a reply to that message of the chat. */
  sendText(from: SandboxUser, text: string, replyTo?: number): Update;
  sendCommand(from: SandboxUser, command: string): Update;
  sendPhoto(from: SandboxUser, bytes: Buffer, caption?: string, mime?: string): Update;
  sendDocument(
    from: SandboxUser,
    bytes: Buffer,
    document: { file_name: string; mime_type: string; caption?: string },
  ): Update;
  /** A voice message the user recorded (Ogg/Opus as Telegram keeps them). */
  sendVoice(from: SandboxUser, bytes: Buffer, voice: { duration: number; mime_type?: string }): Update;
  /** An audio file the user sent (a music-player file: mp3, m4a, ogg…). */
  sendAudio(
    from: SandboxUser,
    bytes: Buffer,
    audio: { duration: number; file_name: string; mime_type: string; caption?: string },
  ): Update;
  /**
   * The user blocks the bot: Telegram tells the bot with a `my_chat_member` update (when it asked for
   * them) and answers every later call to the chat 403 «Forbidden: bot was blocked by the user». The
   * user's next message, or `unblockBot`, unblocks it.
   */
  blockBot(userId: number): void;
  unblockBot(userId: number): void;
  /** The update types the bot receives, as its last `getUpdates` or `setWebhook` asked. */
  readonly allowedUpdates: readonly string[];
  /** The press of a callback button of a message in the user's chat; null when it has no such button. */
  pressButton(from: SandboxUser, messageId: number, data: string): Update | null;
  /**
   * The user pays an invoice message of their chat, as Telegram does: a `pre_checkout_query`
   * update, then — once the bot answers ok within 10 s — a message with `successful_payment`.
   * Answers the bot's decision and, when paid, the update carrying the payment.
   */
  payInvoice(from: SandboxUser, messageId: number): Promise<InvoicePayment>;
  /** The user pays a subscription's invoice link (`createInvoiceLink` with `subscription_period`): as `payInvoice`. */
  paySubscriptionLink(from: SandboxUser, link: string): Promise<InvoicePayment>;
  /**
   * The subscription of this first charge renews (its 30 days passed): a new charge and `successful_payment`
   * (`is_recurring`, not first); null when the bot or the user canceled it.
   */
  renewSubscription(firstChargeId: string): InvoicePayment | null;
  /** The Stars subscriptions, by their first charge's id. */
  readonly subscriptions: ReadonlyMap<string, StarSubscription>;
  /** The same update delivered again, as Telegram may after a network failure (a new update id). */
  redeliver(update: Update): Update;
  /** The Stars charges paid in the sandbox, by charge id. */
  readonly charges: ReadonlyMap<string, StarCharge>;
  chatLog(chatId: number): ChatLogEntry[];
  /** Grows with every message sent, edited or deleted in the chat; 0 for a chat never used. */
  chatVersion(chatId: number): number;
  /** Resolves when the chat's version passes `after`, or after `timeoutMs`, or when `signal` aborts. */
  chatChange(chatId: number, after: number, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Drops a chat with its messages and files (a sandbox user who is forgotten). */
  forgetChat(chatId: number): void;
  close(): Promise<void>;
}

/** What became of paying an invoice: declined with the bot's message, or paid. */
export type InvoicePayment =
  { ok: false; error_message: string } | { ok: true; payment: SuccessfulPayment; update: Update };

/** A payment in Stars the sandbox took, and whether the bot gave it back. */
export interface StarCharge {
  user_id: number;
  total_amount: number;
  refunded: boolean;
  /** Unix times of the payment and of its refund, as `getStarTransactions` dates them. */
  date: number;
  refunded_date?: number;
}

/** A Stars subscription: who pays, the invoice it renews, when the paid period ends, and who canceled it. */
export interface StarSubscription {
  user_id: number;
  user: SandboxUser;
  invoice: { currency: string; total_amount: number; payload: string };
  /** Unix time. */
  expiration_date: number;
  canceled_by_bot: boolean;
  canceled_by_user: boolean;
}

/**
 * How long Telegram waits for the bot: a pre-checkout query unanswered within 10 s is declined (the
 * Bot API's own figure); a callback query's answer is refused as too old after about 15 s (the
 * documentation names no figure; clients stop waiting then).
 */
export interface SandboxTimeouts {
  preCheckoutMs: number;
  callbackQueryMs: number;
}

/** Memory bounds: files are dropped oldest first past `maxFileBytes`, messages past `maxChatMessages` a chat. */
export interface SandboxBotApiLimits {
  maxFileBytes: number;
  maxChatMessages: number;
}

export interface SandboxBotApiOptions {
  token: string;
  /** The bot's name and username as getMe answers them. */
  name: { first_name: string; username: string };
  observer?: BotApiObserver;
  limits?: SandboxBotApiLimits;
  /** Telegram's flood limits, answered with 429 (tests turn them on; off, a person in the browser is never slowed). */
  floodLimits?: FloodLimits;
  timeouts?: Partial<SandboxTimeouts>;
}
