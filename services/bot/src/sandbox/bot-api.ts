import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  Audio,
  BotCommand,
  CallbackQuery,
  Chat,
  Document,
  File as TelegramFile,
  InlineKeyboardMarkup,
  LabeledPrice,
  Message,
  MessageEntity,
  PhotoSize,
  PreCheckoutQuery,
  SuccessfulPayment,
  Update,
  User,
  UserFromGetMe,
  Voice,
} from 'grammy/types';
import { safeFileName } from '@gpt/kit';
import { API_CONSTANTS } from 'grammy';
import { answer, BotApiError, badRequest, isUpload, Params, readParams } from './bot-api-params';
import { floodControl, type FloodLimits } from './flood-control';
import { parseTelegramHtml, TelegramHtmlError } from './telegram-html';

export { BotApiError } from './bot-api-params';

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

const TELEGRAM_TIMEOUTS: SandboxTimeouts = { preCheckoutMs: 10_000, callbackQueryMs: 15_000 };

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

const NO_LIMITS: SandboxBotApiLimits = { maxFileBytes: Infinity, maxChatMessages: Infinity };

/** Text or a caption as a sent message carries it. */
interface FormattedText {
  text?: string;
  entities?: MessageEntity[];
  caption?: string;
  caption_entities?: MessageEntity[];
}

/** A pending long poll or chat watcher; `wake(true)` when a newer poll ends it. */
interface Poller {
  wake(byOther?: boolean): void;
}

interface SandboxChat {
  chat: Chat.PrivateChat;
  messages: Map<number, Message>;
  version: number;
}

/** What a bot gets when it never named the update types it wants: all but three. */
const DEFAULT_UPDATE_TYPES: readonly string[] = API_CONSTANTS.DEFAULT_UPDATE_TYPES;
const ALL_UPDATE_TYPES: readonly string[] = API_CONSTANTS.ALL_UPDATE_TYPES;

const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

/**
 * The Telegram Bot API in memory, speaking its real protocol over HTTP (JSON, form-urlencoded and
 * multipart bodies, long polling, webhooks, files, HTML formatting rules and its error answers),
 * with the user's side of the chats as functions. Tests run it as a fake Telegram; without a
 * bot token the bot service runs it as its local sandbox. Everything is lost when it stops.
 */
export function createSandboxBotApi(options: SandboxBotApiOptions): SandboxBotApi {
  const { token, observer = {}, limits = NO_LIMITS } = options;
  const timeouts = { ...TELEGRAM_TIMEOUTS, ...options.timeouts };
  const flood = options.floodLimits ? floodControl(options.floodLimits) : undefined;
  const me: UserFromGetMe = {
    id: Number(token.split(':')[0]),
    is_bot: true,
    ...options.name,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  };
  const botUser: User = { id: me.id, is_bot: true, first_name: me.first_name, username: me.username };

  const files = new Map<string, StoredFile>();
  const chats = new Map<number, SandboxChat>();
  /** Who waits for a chat to change (the user's side of the sandbox), by chat id. */
  const watchers = new Map<number, Set<Poller>>();
  /** Callback queries not answered yet, with when each expires. */
  const callbackQueries = new Map<string, number>();
  /** The users who blocked the bot. */
  const blockedBy = new Set<number>();
  /** Pre-checkout queries waiting for the bot's answer, by id. */
  const preCheckouts = new Map<string, (answer: { ok: boolean; error_message?: string }) => void>();
  const charges = new Map<string, StarCharge>();
  /** The payload of each invoice message (Telegram keeps it from the payer's view), by message id. */
  const invoicePayloads = new Map<number, string>();
  let nextInvoiceNumber = 1;
  const queue: Update[] = [];
  const pollers = new Set<Poller>();
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let nextFileNumber = 1;
  let fileBytes = 0;
  let webhookDelivery = Promise.resolve();
  let closed = false;

  const state = {
    commands: [] as BotCommand[],
    webhook: null as SandboxBotApi['webhook'],
    allowedUpdates: DEFAULT_UPDATE_TYPES,
  };

  const now = () => Math.floor(Date.now() / 1000);
  const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');

  function dropFile(file: StoredFile): void {
    if (files.delete(file.file_id)) fileBytes -= file.bytes.length;
  }

  function storeFile(
    bytes: Buffer,
    mime: string,
    folder: string,
    options: { name?: string | undefined; chatId?: number } = {},
  ): StoredFile {
    const number = nextFileNumber++;
    const name = options.name === undefined ? undefined : safeFileName(options.name) || undefined;
    const extension = (name?.includes('.') ? name.split('.').pop() : mime.split('/')[1])?.replace(/[^\w]/g, '');
    const file: StoredFile = {
      file_id: `BQACAgIAAxk${randomId(24)}`,
      file_unique_id: `AgAD${randomId(6)}`,
      file_size: bytes.length,
      file_path: `${folder}/file_${number}.${extension || 'bin'}`,
      bytes,
      mime,
      name,
      chatId: options.chatId,
    };
    files.set(file.file_id, file);
    fileBytes += bytes.length;
    // Maps keep insertion order: the first files are the oldest.
    for (const oldest of files.values()) {
      if (fileBytes <= limits.maxFileBytes || oldest === file) break;
      dropFile(oldest);
    }
    return file;
  }

  /** Keeps a chat's message at most `maxChatMessages`, forgetting the oldest. */
  function keep(entry: SandboxChat, message: Message): void {
    entry.messages.set(message.message_id, message);
    for (const id of entry.messages.keys()) {
      if (entry.messages.size <= limits.maxChatMessages) break;
      entry.messages.delete(id);
    }
  }

  function chatOf(user: SandboxUser): SandboxChat {
    let entry = chats.get(user.id);
    if (!entry) {
      const chat: Chat.PrivateChat = { id: user.id, type: 'private', first_name: user.first_name };
      if (user.last_name) chat.last_name = user.last_name;
      if (user.username) chat.username = user.username;
      entry = { chat, messages: new Map(), version: 0 };
      chats.set(user.id, entry);
    }
    return entry;
  }

  function changed(entry: SandboxChat): void {
    entry.version++;
    for (const watcher of watchers.get(entry.chat.id) ?? []) watcher.wake();
  }

  // ── Updates: the getUpdates queue or the webhook ────────────────────────────────────────────────

  /**
   * Queues an update of a type the bot asked for; others are never delivered (Telegram filters when
   * an update is made, so a changed list does not reach updates already queued).
   */
  function pushUpdate(fields: Omit<Update, 'update_id'>): Update {
    const update = { update_id: nextUpdateId++, ...fields } as Update;
    if (!Object.keys(fields).every((type) => state.allowedUpdates.includes(type))) return update;
    queue.push(update);
    if (state.webhook) deliverToWebhook();
    else for (const poller of pollers) poller.wake();
    return update;
  }

  /** Sends queued updates one at a time, as Telegram does, retrying a refused delivery a few times. */
  function deliverToWebhook(): void {
    webhookDelivery = webhookDelivery.then(async () => {
      while (state.webhook && queue.length > 0 && !closed) {
        const { url, secret_token } = state.webhook;
        const update = queue[0]!;
        for (let attempt = 1; attempt <= 5; attempt++) {
          const ok = await fetch(url, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              ...(secret_token ? { 'X-Telegram-Bot-Api-Secret-Token': secret_token } : {}),
            },
            body: JSON.stringify(update),
          }).then(
            (res) => res.ok,
            () => false,
          );
          if (ok || closed) break;
          await sleep(100 * attempt);
        }
        queue.shift();
      }
    });
  }

  /** `allowed_updates` as getUpdates and setWebhook take it: omitted keeps the last list, empty means the default. */
  function allowUpdates(params: Params): void {
    const types = params.object<unknown>('allowed_updates');
    if (types === undefined || types === null) return;
    if (!Array.isArray(types)) throw badRequest("can't parse allowed_updates JSON array");
    const known = types.filter((type): type is string => typeof type === 'string' && ALL_UPDATE_TYPES.includes(type));
    state.allowedUpdates = known.length > 0 ? known : DEFAULT_UPDATE_TYPES;
  }

  /** The user of a private chat the sandbox knows, as their chat names them. */
  function userOf(userId: number): SandboxUser | undefined {
    const chat = chats.get(userId)?.chat;
    if (!chat) return undefined;
    return {
      id: userId,
      first_name: chat.first_name,
      ...(chat.last_name ? { last_name: chat.last_name } : {}),
      ...(chat.username ? { username: chat.username } : {}),
    };
  }

  /** The bot's membership in a user's chat changed, as Telegram reports it (`my_chat_member`). */
  function memberUpdate(from: SandboxUser, oldStatus: 'member' | 'kicked', newStatus: 'member' | 'kicked'): void {
    const member = (status: typeof oldStatus) =>
      status === 'kicked' ? { status, user: botUser, until_date: 0 } : { status, user: botUser };
    pushUpdate({
      my_chat_member: {
        chat: chatOf(from).chat,
        from: { ...from, is_bot: false },
        date: now(),
        old_chat_member: member(oldStatus),
        new_chat_member: member(newStatus),
      },
    } as Omit<Update, 'update_id'>);
  }

  function unblock(from: SandboxUser): void {
    if (blockedBy.delete(from.id)) memberUpdate(from, 'kicked', 'member');
  }

  function userMessage(from: SandboxUser, fields: Partial<Message>): Update {
    unblock(from);
    const entry = chatOf(from);
    const message = {
      message_id: nextMessageId++,
      from: { ...from, is_bot: false },
      chat: entry.chat,
      date: now(),
      ...fields,
    } as Message;
    keep(entry, message);
    changed(entry);
    return pushUpdate({ message: message as Update['message'] });
  }

  // ── Bot API methods ─────────────────────────────────────────────────────────────────────────────

  type Handler = (params: Params) => unknown;

  function botMessage(chatId: number, fields: Partial<Message>): Message {
    const entry = chats.get(chatId);
    if (!entry) throw badRequest('chat not found');
    const message = { message_id: nextMessageId++, from: botUser, chat: entry.chat, date: now(), ...fields } as Message;
    keep(entry, message);
    changed(entry);
    return message;
  }

  /** Text with its entities as the parse mode makes them; refuses what Telegram refuses. */
  function formatted(
    raw: string | undefined,
    parseMode: string | undefined,
    limit: number,
    what: 'text' | 'caption',
  ): FormattedText {
    if (raw === undefined || raw.trim() === '') {
      if (what === 'text') throw badRequest('message text is empty');
      return {};
    }
    const parsed =
      parseMode?.toUpperCase() === 'HTML' ? parseTelegramHtmlOrRefuse(raw) : { text: raw.trim(), entities: [] };
    if (parsed.text.length === 0 && what === 'text') throw badRequest('text must be non-empty');
    if (parsed.text.length > limit)
      throw badRequest(what === 'text' ? 'message is too long' : 'message caption is too long');
    const entities = parsed.entities.length > 0 ? parsed.entities : undefined;
    if (what === 'caption')
      return entities ? { caption: parsed.text, caption_entities: entities } : { caption: parsed.text };
    return entities ? { text: parsed.text, entities } : { text: parsed.text };
  }

  function replyMarkup(params: Params): { reply_markup?: InlineKeyboardMarkup } {
    const markup = params.object<Partial<InlineKeyboardMarkup>>('reply_markup');
    if (!markup?.inline_keyboard) return {};
    for (const button of markup.inline_keyboard.flat()) {
      // 1–64 bytes, as Telegram counts them.
      const bytes = 'callback_data' in button ? Buffer.byteLength(button.callback_data) : 1;
      if (bytes < 1 || bytes > 64) throw badRequest('BUTTON_DATA_INVALID');
    }
    return { reply_markup: markup as InlineKeyboardMarkup };
  }

  /** A photo or document parameter: an upload, a known file_id, or an HTTP URL (kept, never fetched). */
  function inputFile(params: Params, field: string, folder: string, chatId: number): StoredFile {
    const value = params.values[field];
    if (isUpload(value)) return storeFile(value.bytes, value.type, folder, { name: value.name, chatId });
    if (typeof value === 'string' && files.has(value)) return files.get(value)!;
    if (typeof value === 'string' && /^https?:\/\//.test(value))
      return storeFile(Buffer.alloc(0), 'application/octet-stream', folder, { name: value.split('/').pop(), chatId });
    throw badRequest('wrong file identifier/HTTP URL specified');
  }

  function existingMessage(params: Params, action: string): { entry: SandboxChat; message: Message } {
    const chatId = params.number('chat_id');
    const messageId = params.number('message_id');
    const entry = chatId === undefined ? undefined : chats.get(chatId);
    const message = messageId === undefined ? undefined : entry?.messages.get(messageId);
    if (!entry || !message) throw badRequest(`message to ${action} not found`);
    return { entry, message };
  }

  const handlers: Record<string, Handler> = {
    getMe: () => me,

    setWebhook: (params) => {
      const url = params.string('url') ?? '';
      allowUpdates(params);
      if (params.values.drop_pending_updates === true) queue.length = 0;
      if (url === '') {
        state.webhook = null;
        return true;
      }
      if (!/^https?:\/\//.test(url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
      const secret = params.string('secret_token');
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
        throw badRequest('secret token contains unallowed characters');
      state.webhook = secret ? { url, secret_token: secret } : { url };
      for (const poller of pollers) poller.wake();
      deliverToWebhook();
      return true;
    },

    deleteWebhook: (params) => {
      if (params.values.drop_pending_updates === true) queue.length = 0;
      state.webhook = null;
      return true;
    },

    getWebhookInfo: () => ({
      url: state.webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: queue.length,
    }),

    setMyCommands: (params) => {
      const commands = params.object<BotCommand[]>('commands');
      if (!Array.isArray(commands)) throw badRequest('parameter "commands" is required');
      for (const { command, description } of commands) {
        if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest('BOT_COMMAND_INVALID');
        if (!description || description.length > 256) throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
      }
      state.commands = commands;
      return true;
    },

    sendMessage: (params) =>
      botMessage(params.requiredNumber('chat_id'), {
        ...formatted(params.string('text'), params.string('parse_mode'), TEXT_LIMIT, 'text'),
        ...replyMarkup(params),
      }),

    editMessageText: (params) => {
      const { entry, message } = existingMessage(params, 'edit');
      if (message.from?.id !== me.id) throw badRequest("message can't be edited");
      if (message.text === undefined) throw badRequest('there is no text in the message to edit');
      const edited = {
        ...formatted(params.string('text'), params.string('parse_mode'), TEXT_LIMIT, 'text'),
        ...replyMarkup(params),
      };
      const same =
        edited.text === message.text &&
        JSON.stringify(edited.entities ?? []) === JSON.stringify(message.entities ?? []) &&
        JSON.stringify(edited.reply_markup) === JSON.stringify(message.reply_markup);
      if (same)
        throw badRequest(
          'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        );
      delete message.entities;
      delete message.reply_markup;
      Object.assign(message, edited, { edit_date: now() });
      changed(entry);
      return message;
    },

    deleteMessage: (params) => {
      const { entry, message } = existingMessage(params, 'delete');
      entry.messages.delete(message.message_id);
      changed(entry);
      return true;
    },

    sendPhoto: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = inputFile(params, 'photo', 'photos', chatId);
      const photo: PhotoSize = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        width: 1024,
        height: 1024,
      };
      return botMessage(chatId, {
        photo: [photo],
        ...formatted(params.string('caption'), params.string('parse_mode'), CAPTION_LIMIT, 'caption'),
        ...replyMarkup(params),
      });
    },

    sendDocument: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = inputFile(params, 'document', 'documents', chatId);
      const document: Document = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        mime_type: file.mime,
      };
      if (file.name) document.file_name = file.name;
      return botMessage(chatId, {
        document,
        ...formatted(params.string('caption'), params.string('parse_mode'), CAPTION_LIMIT, 'caption'),
        ...replyMarkup(params),
      });
    },

    sendVoice: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = inputFile(params, 'voice', 'voice', chatId);
      const voice: Voice = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        duration: params.number('duration') ?? 0,
        mime_type: file.mime === 'application/octet-stream' ? 'audio/ogg' : file.mime,
      };
      return botMessage(chatId, {
        voice,
        ...formatted(params.string('caption'), params.string('parse_mode'), CAPTION_LIMIT, 'caption'),
        ...replyMarkup(params),
      });
    },

    sendChatAction: (params) => {
      const chatId = params.requiredNumber('chat_id');
      if (!chats.has(chatId)) throw badRequest('chat not found');
      if (!CHAT_ACTIONS.has(params.string('action') ?? '')) throw badRequest('wrong parameter action in request');
      return true;
    },

    sendInvoice: (params) => {
      const { payload, ...invoice } = invoiceOf(params);
      const message = botMessage(params.requiredNumber('chat_id'), { invoice, ...replyMarkup(params) });
      invoicePayloads.set(message.message_id, payload);
      return message;
    },

    createInvoiceLink: (params) => {
      invoiceOf(params);
      return `https://t.me/$${randomId(12)}`;
    },

    answerPreCheckoutQuery: (params) => {
      const resolve = preCheckouts.get(params.string('pre_checkout_query_id') ?? '');
      if (!resolve) throw badRequest('query is too old and response timeout expired or query ID is invalid');
      const ok = params.values.ok === true || params.values.ok === 'true';
      const errorMessage = params.string('error_message');
      if (!ok && !errorMessage) throw badRequest('error_message is required when ok is false');
      resolve(ok ? { ok } : { ok, error_message: errorMessage! });
      return true;
    },

    refundStarPayment: (params) => {
      const charge = charges.get(params.string('telegram_payment_charge_id') ?? '');
      if (!charge || charge.user_id !== params.number('user_id')) throw badRequest('CHARGE_NOT_FOUND');
      if (charge.refunded) throw badRequest('CHARGE_ALREADY_REFUNDED');
      charge.refunded = true;
      return true;
    },

    answerCallbackQuery: (params) => {
      const id = params.string('callback_query_id') ?? '';
      const expires = callbackQueries.get(id);
      callbackQueries.delete(id);
      if (expires === undefined || Date.now() > expires)
        throw badRequest('query is too old and response timeout expired or query ID is invalid');
      return true;
    },

    getFile: (params) => {
      const file = files.get(params.string('file_id') ?? '');
      if (!file) throw badRequest('invalid file_id');
      const { file_id, file_unique_id, file_size, file_path } = file;
      return { file_id, file_unique_id, file_size, file_path } satisfies TelegramFile;
    },
  };

  /** An invoice's fields as Telegram checks them: Stars (XTR) need an empty provider token and exactly one price. */
  function invoiceOf(params: Params): Message.InvoiceMessage['invoice'] & { payload: string } {
    const title = params.string('title') ?? '';
    const description = params.string('description') ?? '';
    const payload = params.string('payload') ?? '';
    const currency = params.string('currency') ?? '';
    const prices = params.object<LabeledPrice[]>('prices');
    if (title.length < 1 || title.length > 32) throw badRequest('INVOICE_TITLE_INVALID');
    if (description.length < 1 || description.length > 255) throw badRequest('INVOICE_DESCRIPTION_INVALID');
    if (Buffer.byteLength(payload) < 1 || Buffer.byteLength(payload) > 128) throw badRequest('INVOICE_PAYLOAD_INVALID');
    if (!Array.isArray(prices) || prices.length === 0) throw badRequest('parameter "prices" is required');
    // Stars need an empty provider token and exactly one price; any other currency needs a payment
    // provider, which the sandbox (like a bot that sells in Stars only) has none of.
    if (currency !== 'XTR') throw badRequest('PAYMENT_PROVIDER_INVALID');
    if (params.string('provider_token') || prices.length !== 1) throw badRequest('STARS_INVOICE_INVALID');
    const total = prices.reduce((sum, price) => sum + price.amount, 0);
    if (!prices.every((price) => Number.isInteger(price.amount) && price.amount > 0)) throw badRequest('PRICE_INVALID');
    return { title, description, start_parameter: '', currency, total_amount: total, payload };
  }

  /**
   * Waits in `group` until woken, at most `timeoutMs`, or until `onGone` calls back (the client left);
   * true when a newer poll ended the wait.
   */
  function waitToBeWoken(group: Set<Poller>, timeoutMs: number, onGone: (wake: () => void) => void) {
    return new Promise<boolean>((resolve) => {
      const poller: Poller = {
        wake: (byOther = false) => {
          clearTimeout(timer);
          group.delete(poller);
          resolve(byOther);
        },
      };
      const timer = setTimeout(() => poller.wake(), timeoutMs);
      onGone(() => poller.wake());
      group.add(poller);
    });
  }

  /** Long polling: answers at once when updates at or after `offset` are queued, else when one arrives or `timeout` ends. */
  async function getUpdates(params: Params, res: ServerResponse): Promise<Update[]> {
    if (state.webhook)
      throw new BotApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    allowUpdates(params);
    const offset = params.number('offset') ?? 0;
    const limit = Math.min(Math.max(params.number('limit') ?? 100, 1), 100);
    const timeoutSec = params.number('timeout') ?? 0;
    if (offset > 0) while (queue.length > 0 && queue[0]!.update_id < offset) queue.shift();
    const pending = () => (offset < 0 ? queue.slice(offset) : queue).slice(0, limit);
    if (pending().length > 0 || timeoutSec <= 0 || closed) return pending();

    // A newer long poll ends an older one, as Telegram does when two bot instances poll.
    for (const poller of pollers) poller.wake(true);
    const terminated = await waitToBeWoken(pollers, timeoutSec * 1000, (wake) => res.once('close', wake));
    if (terminated)
      throw new BotApiError(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      );
    if (state.webhook) return [];
    return pending();
  }

  // ── HTTP ────────────────────────────────────────────────────────────────────────────────────────

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && download) {
      const file = [...files.values()].find((f) => f.file_path === decodeURIComponent(download[2]!));
      if (download[1] !== token || !file) {
        answer(res, new BotApiError(404, 'Not Found'));
        return;
      }
      res.writeHead(200, { 'Content-Type': file.mime, 'Content-Length': file.bytes.length }).end(file.bytes);
      return;
    }
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!route || (req.method !== 'GET' && req.method !== 'POST')) {
      answer(res, new BotApiError(404, 'Not Found'));
      return;
    }
    if (route[1] !== token) {
      answer(res, new BotApiError(401, 'Unauthorized'));
      return;
    }
    // Method names are case-insensitive in the Bot API.
    const method = Object.keys(handlers)
      .concat('getUpdates')
      .find((name) => name.toLowerCase() === route[2]!.toLowerCase());
    if (!method) {
      answer(res, new BotApiError(404, 'Not Found'));
      return;
    }
    const params = new Params(await readParams(req, url));
    const call: BotApiCall = { method, params: params.values, at: Date.now(), ok: false };
    observer.received?.(call);
    let outcome: unknown;
    try {
      const fault = observer.fault?.(call);
      if (fault) throw fault;
      const chatId = params.number('chat_id');
      if (chatId !== undefined && blockedBy.has(chatId))
        throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
      flood?.check(method, chatId);
      outcome = method === 'getUpdates' ? await getUpdates(params, res) : handlers[method]!(params);
      flood?.spend(method, chatId);
      call.ok = true;
      call.result = outcome;
    } catch (err) {
      outcome = err instanceof BotApiError ? err : new BotApiError(500, `Internal Server Error: ${String(err)}`);
      const { code, message } = outcome as BotApiError;
      call.error = { error_code: code, description: message };
    }
    answer(res, outcome);
    if (call.ok) observer.answered?.(call);
  }

  return {
    token,
    me,
    get commands() {
      return state.commands;
    },
    get webhook() {
      return state.webhook;
    },
    get allowedUpdates() {
      return state.allowedUpdates;
    },

    blockBot(userId) {
      const user = userOf(userId);
      if (blockedBy.has(userId) || !user) return;
      blockedBy.add(userId);
      memberUpdate(user, 'member', 'kicked');
    },

    unblockBot(userId) {
      const user = userOf(userId);
      if (user) unblock(user);
    },

    handle: (req, res) =>
      handle(req, res).catch((err: unknown) =>
        answer(res, err instanceof BotApiError ? err : new BotApiError(400, `Bad Request: ${String(err)}`)),
      ),

    addFile(bytes, fileOptions = {}) {
      const { file_id, file_unique_id, file_size, file_path } = storeFile(
        bytes,
        fileOptions.mime ?? 'application/octet-stream',
        'documents',
        { name: fileOptions.name },
      );
      return { file_id, file_unique_id, file_size, file_path };
    },

    file: (fileId) => files.get(fileId),

    sendText(from, text, replyTo) {
      const replied = replyTo === undefined ? undefined : chatOf(from).messages.get(replyTo);
      // Telegram sends the replied message along, without its own reply.
      const reply = replied ? { reply_to_message: { ...replied, reply_to_message: undefined } } : {};
      return userMessage(from, { text, ...reply } as Partial<Message>);
    },

    sendVoice(from, bytes, { duration, mime_type = 'audio/ogg' }) {
      const file = storeFile(bytes, mime_type, 'voice', { chatId: from.id });
      const voice: Voice = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        duration,
        mime_type,
      };
      return userMessage(from, { voice });
    },

    sendAudio(from, bytes, { duration, file_name, mime_type, caption }) {
      const file = storeFile(bytes, mime_type, 'music', { name: file_name, chatId: from.id });
      const audio: Audio = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        duration,
        file_name,
        mime_type,
      };
      return userMessage(from, caption ? { audio, caption } : { audio });
    },

    sendCommand(from, command) {
      const length = command.split(/\s/)[0]!.length;
      return userMessage(from, { text: command, entities: [{ type: 'bot_command', offset: 0, length }] });
    },

    sendPhoto(from, bytes, caption, mime = 'image/jpeg') {
      const file = storeFile(bytes, mime, 'photos', { chatId: from.id });
      const sizes: PhotoSize[] = [
        {
          file_id: file.file_id,
          file_unique_id: file.file_unique_id,
          file_size: file.file_size,
          width: 800,
          height: 600,
        },
      ];
      return userMessage(from, caption ? { photo: sizes, caption } : { photo: sizes });
    },

    sendDocument(from, bytes, { file_name, mime_type, caption }) {
      const file = storeFile(bytes, mime_type, 'documents', { name: file_name, chatId: from.id });
      const document: Document = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        // As Telegram delivers it, whatever the user's client sent: the bot makes it safe.
        file_name,
        mime_type,
      };
      return userMessage(from, caption ? { document, caption } : { document });
    },

    pressButton(from, messageId, data) {
      const message = chatOf(from).messages.get(messageId);
      const buttons = message?.reply_markup?.inline_keyboard.flat() ?? [];
      if (!buttons.some((button) => 'callback_data' in button && button.callback_data === data)) return null;
      const query: CallbackQuery = {
        id: String(BigInt(from.id) * 1000n + BigInt(nextUpdateId)),
        from: { ...from, is_bot: false },
        // The message as it is when pressed; later edits do not change an update already sent.
        message: structuredClone(message!),
        chat_instance: String(-from.id),
        data,
      } as CallbackQuery;
      callbackQueries.set(query.id, Date.now() + timeouts.callbackQueryMs);
      return pushUpdate({ callback_query: query });
    },

    async payInvoice(from, messageId) {
      const invoice = chatOf(from).messages.get(messageId)?.invoice;
      const payload = invoicePayloads.get(messageId);
      if (!invoice || payload === undefined) throw new Error(`message ${messageId} of chat ${from.id} is no invoice`);
      const query: PreCheckoutQuery = {
        id: String(BigInt(from.id) * 1000n + BigInt(nextUpdateId)),
        from: { ...from, is_bot: false },
        currency: invoice.currency,
        total_amount: invoice.total_amount,
        invoice_payload: payload,
      };
      const decision = await new Promise<{ ok: boolean; error_message?: string }>((resolve) => {
        const timer = setTimeout(
          () => settle({ ok: false, error_message: 'Бот не ответил вовремя' }),
          timeouts.preCheckoutMs,
        );
        const settle = (answer: { ok: boolean; error_message?: string }) => {
          clearTimeout(timer);
          preCheckouts.delete(query.id);
          resolve(answer);
        };
        preCheckouts.set(query.id, settle);
        pushUpdate({ pre_checkout_query: query });
      });
      if (!decision.ok) return { ok: false, error_message: decision.error_message ?? '' };
      const chargeId = `stxSandbox${nextInvoiceNumber++}_${randomId(12)}`;
      charges.set(chargeId, { user_id: from.id, total_amount: invoice.total_amount, refunded: false });
      const payment: SuccessfulPayment = {
        currency: invoice.currency,
        total_amount: invoice.total_amount,
        invoice_payload: payload,
        telegram_payment_charge_id: chargeId,
        provider_payment_charge_id: '',
      };
      return { ok: true, payment, update: userMessage(from, { successful_payment: payment }) };
    },

    redeliver: (update) => {
      const { update_id: _id, ...fields } = update;
      return pushUpdate(fields);
    },

    charges,

    chatLog(chatId) {
      const messages = [...(chats.get(chatId)?.messages.values() ?? [])];
      return messages.map((message) => {
        const entry: ChatLogEntry = {
          message_id: message.message_id,
          from: message.from?.id === me.id ? 'bot' : 'user',
          text: message.text ?? message.caption ?? '',
          message,
        };
        if (message.reply_markup) entry.reply_markup = message.reply_markup;
        return entry;
      });
    },

    chatVersion: (chatId) => chats.get(chatId)?.version ?? 0,

    async chatChange(chatId, after, timeoutMs, signal) {
      if ((chats.get(chatId)?.version ?? 0) > after || closed || signal?.aborted) return;
      let group = watchers.get(chatId);
      if (!group) watchers.set(chatId, (group = new Set()));
      await waitToBeWoken(group, timeoutMs, (wake) => signal?.addEventListener('abort', wake, { once: true }));
      if (group.size === 0) watchers.delete(chatId);
    },

    forgetChat(chatId) {
      chats.delete(chatId);
      for (const file of [...files.values()]) if (file.chatId === chatId) dropFile(file);
      for (const watcher of watchers.get(chatId) ?? []) watcher.wake();
    },

    async close() {
      closed = true;
      for (const poller of pollers) poller.wake();
      for (const group of watchers.values()) for (const watcher of group) watcher.wake();
      await webhookDelivery;
    },
  };
}

function parseTelegramHtmlOrRefuse(html: string): { text: string; entities: MessageEntity[] } {
  try {
    return parseTelegramHtml(html);
  } catch (err) {
    if (err instanceof TelegramHtmlError) throw badRequest(err.message);
    throw err;
  }
}
