import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  BotCommand,
  CallbackQuery,
  Chat,
  Document,
  File as TelegramFile,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  PhotoSize,
  Update,
  User,
  UserFromGetMe,
} from 'grammy/types';

/** A Telegram user as the test plays them; the private chat with the bot has the user's id. */
export interface FakeUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** One Bot API call the fake answered, in arrival order. */
export interface RecordedCall {
  method: string;
  /** The parameters as Telegram reads them, whatever the body encoding (numbers and JSON fields decoded). */
  params: Record<string, unknown>;
  at: number;
  ok: boolean;
  result?: unknown;
  error?: { error_code: number; description: string };
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

export type TelegramFault = { error_code: 429; retry_after: number } | { error_code: 500 };

export interface FakeTelegram {
  /** For grammY's `client.apiRoot`. */
  apiUrl: string;
  token: string;
  me: UserFromGetMe;
  calls: RecordedCall[];
  /** The commands set with setMyCommands (default scope). */
  commands: BotCommand[];
  webhook: { url: string; secret_token?: string } | null;
  addFile(bytes: Buffer, options?: { mime?: string; name?: string }): StoredFileInfo;
  sendText(from: FakeUser, text: string): Update;
  sendCommand(from: FakeUser, command: string): Update;
  sendPhoto(from: FakeUser, bytes: Buffer, caption?: string): Update;
  sendDocument(
    from: FakeUser,
    bytes: Buffer,
    document: { file_name: string; mime_type: string; caption?: string },
  ): Update;
  pressButton(from: FakeUser, messageId: number, data: string): Update;
  /**
   * The first successful call of `method` matching `predicate`, already made or yet to come;
   * rejects after `timeoutMs` listing what was called instead.
   */
  /** The first call (past or future) of the method, or of any of the methods, that matches. */
  waitFor(
    method: string | string[],
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  chatLog(chatId: number): ChatLogEntry[];
  /** The next call of `method` fails this way (several calls queue several failures). */
  failNext(method: string, fault: TelegramFault): void;
  close(): Promise<void>;
}

export interface StoredFileInfo {
  file_id: string;
  file_unique_id: string;
  file_size: number;
  file_path: string;
}

interface StoredFile extends StoredFileInfo {
  bytes: Buffer;
  mime: string;
  name?: string;
}

/** Text or a caption as a sent message carries it. */
interface FormattedText {
  text?: string;
  entities?: MessageEntity[];
  caption?: string;
  caption_entities?: MessageEntity[];
}

/** A pending long poll; `wake(true)` when a newer poll ends it. */
interface Poller {
  wake(byOther?: boolean): void;
}

/** An upload from a multipart body. */
interface UploadedFile {
  upload: true;
  bytes: Buffer;
  name: string;
  type: string;
}

/** A Bot API refusal, answered as `{ ok: false, error_code, description }` with the same HTTP status. */
class BotApiError extends Error {
  constructor(
    readonly code: number,
    description: string,
    readonly parameters?: { retry_after: number },
  ) {
    super(description);
  }
}

const badRequest = (description: string) => new BotApiError(400, `Bad Request: ${description}`);

const DEFAULT_TOKEN = '7000000001:AAH-fake_telegram_token_for_tests_0';
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
/** Fields that stay strings in form bodies even when they look like numbers or JSON. */
const STRING_FIELDS = new Set([
  'text',
  'caption',
  'url',
  'secret_token',
  'callback_query_id',
  'file_id',
  'parse_mode',
  'action',
  'photo',
  'document',
  'data',
]);

/**
 * A stand-in for the Telegram Bot API on localhost that speaks its real protocol (JSON,
 * form-urlencoded and multipart bodies, long polling, webhooks, files, HTML formatting rules and
 * its error answers). The test plays the users through its helpers and reads what they saw.
 */
export async function startFakeTelegram(options: { token?: string } = {}): Promise<FakeTelegram> {
  const token = options.token ?? DEFAULT_TOKEN;
  const botId = Number(token.split(':')[0]);
  const me: UserFromGetMe = {
    id: botId,
    is_bot: true,
    first_name: 'Test GPT',
    username: 'test_gpt_bot',
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

  const calls: RecordedCall[] = [];
  const callWaiters = new Set<{
    methods: string[];
    predicate: (call: RecordedCall) => boolean;
    resolve: (call: RecordedCall) => void;
  }>();
  const faults = new Map<string, TelegramFault[]>();
  const files = new Map<string, StoredFile>();
  const chats = new Map<number, { chat: Chat.PrivateChat; messages: Map<number, Message> }>();
  const callbackQueries = new Map<string, CallbackQuery>();
  const queue: Update[] = [];
  let pollers: Poller[] = [];
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let nextFileNumber = 1;
  let webhookDelivery = Promise.resolve();
  let closed = false;

  const state = {
    commands: [] as BotCommand[],
    webhook: null as FakeTelegram['webhook'],
  };

  const now = () => Math.floor(Date.now() / 1000);
  const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');

  function storeFile(bytes: Buffer, mime: string, folder: string, name?: string): StoredFile {
    const number = nextFileNumber++;
    const extension = name?.includes('.') ? name.split('.').pop() : mime.split('/')[1];
    const file: StoredFile = {
      file_id: `BQACAgIAAxk${randomId(24)}`,
      file_unique_id: `AgAD${randomId(6)}`,
      file_size: bytes.length,
      file_path: `${folder}/file_${number}.${extension ?? 'bin'}`,
      bytes,
      mime,
      name,
    };
    files.set(file.file_id, file);
    return file;
  }

  function chatOf(user: FakeUser) {
    let entry = chats.get(user.id);
    if (!entry) {
      const chat: Chat.PrivateChat = { id: user.id, type: 'private', first_name: user.first_name };
      if (user.last_name) chat.last_name = user.last_name;
      if (user.username) chat.username = user.username;
      entry = { chat, messages: new Map() };
      chats.set(user.id, entry);
    }
    return entry;
  }

  // ── Updates: the getUpdates queue or the webhook ────────────────────────────────────────────────

  function pushUpdate(fields: Omit<Update, 'update_id'>): Update {
    const update = { update_id: nextUpdateId++, ...fields } as Update;
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

  function userMessage(from: FakeUser, fields: Partial<Message>): Update {
    const { chat, messages } = chatOf(from);
    const message = {
      message_id: nextMessageId++,
      from: { ...from, is_bot: false },
      chat,
      date: now(),
      ...fields,
    } as Message;
    messages.set(message.message_id, message);
    return pushUpdate({ message: message as Update['message'] });
  }

  // ── Bot API methods ─────────────────────────────────────────────────────────────────────────────

  type Handler = (params: Params) => unknown;

  function botMessage(chatId: number, fields: Partial<Message>): Message {
    const entry = chats.get(chatId);
    if (!entry) throw badRequest('chat not found');
    const message = { message_id: nextMessageId++, from: botUser, chat: entry.chat, date: now(), ...fields } as Message;
    entry.messages.set(message.message_id, message);
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
    if (parsed.text.length > limit) throw badRequest(`message ${what} is too long`);
    const entities = parsed.entities.length > 0 ? parsed.entities : undefined;
    if (what === 'caption')
      return entities ? { caption: parsed.text, caption_entities: entities } : { caption: parsed.text };
    return entities ? { text: parsed.text, entities } : { text: parsed.text };
  }

  function replyMarkup(params: Params): { reply_markup?: InlineKeyboardMarkup } {
    const markup = params.object<Partial<InlineKeyboardMarkup>>('reply_markup');
    if (!markup?.inline_keyboard) return {};
    for (const button of markup.inline_keyboard.flat()) {
      if ('callback_data' in button && Buffer.byteLength(button.callback_data) > 64)
        throw badRequest('BUTTON_DATA_INVALID');
    }
    return { reply_markup: markup as InlineKeyboardMarkup };
  }

  /** A photo or document parameter: an upload, a known file_id, or an HTTP URL (kept, never fetched). */
  function inputFile(params: Params, field: string, folder: string): StoredFile {
    const value = params.values[field];
    if (isUpload(value)) return storeFile(value.bytes, value.type, folder, value.name);
    if (typeof value === 'string' && files.has(value)) return files.get(value)!;
    if (typeof value === 'string' && /^https?:\/\//.test(value))
      return storeFile(Buffer.alloc(0), 'application/octet-stream', folder, value.split('/').pop());
    throw badRequest('wrong file identifier/HTTP URL specified');
  }

  function existingMessage(params: Params, action: string): { chatId: number; message: Message } {
    const chatId = params.number('chat_id');
    const messageId = params.number('message_id');
    const message =
      chatId === undefined || messageId === undefined ? undefined : chats.get(chatId)?.messages.get(messageId);
    if (!message) throw badRequest(`message to ${action} not found`);
    return { chatId: chatId!, message };
  }

  const handlers: Record<string, Handler> = {
    getMe: () => me,

    setWebhook: (params) => {
      const url = params.string('url') ?? '';
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
      const { message } = existingMessage(params, 'edit');
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
      return message;
    },

    deleteMessage: (params) => {
      const { chatId, message } = existingMessage(params, 'delete');
      chats.get(chatId)!.messages.delete(message.message_id);
      return true;
    },

    sendPhoto: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = inputFile(params, 'photo', 'photos');
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
      const file = inputFile(params, 'document', 'documents');
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

    sendChatAction: (params) => {
      const chatId = params.requiredNumber('chat_id');
      if (!chats.has(chatId)) throw badRequest('chat not found');
      if (!CHAT_ACTIONS.has(params.string('action') ?? '')) throw badRequest('wrong parameter action in request');
      return true;
    },

    answerCallbackQuery: (params) => {
      const id = params.string('callback_query_id') ?? '';
      if (!callbackQueries.delete(id))
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

  /** Long polling: answers at once when updates at or after `offset` are queued, else when one arrives or `timeout` ends. */
  async function getUpdates(params: Params, res: ServerResponse): Promise<Update[]> {
    if (state.webhook)
      throw new BotApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    const offset = params.number('offset') ?? 0;
    const limit = Math.min(Math.max(params.number('limit') ?? 100, 1), 100);
    const timeoutSec = params.number('timeout') ?? 0;
    if (offset > 0) while (queue.length > 0 && queue[0]!.update_id < offset) queue.shift();
    const pending = () => (offset < 0 ? queue.slice(offset) : queue).slice(0, limit);
    if (pending().length > 0 || timeoutSec <= 0) return pending();

    // A newer long poll ends an older one, as Telegram does when two bot instances poll.
    for (const poller of pollers) poller.wake(true);
    const terminated = await new Promise<boolean>((resolve) => {
      const poller: Poller = {
        wake: (byOther = false) => {
          clearTimeout(timer);
          pollers = pollers.filter((p) => p !== poller);
          resolve(byOther);
        },
      };
      const timer = setTimeout(() => poller.wake(), timeoutSec * 1000);
      res.on('close', () => poller.wake());
      pollers.push(poller);
    });
    if (terminated)
      throw new BotApiError(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      );
    if (state.webhook) return [];
    return pending();
  }

  // ── HTTP ────────────────────────────────────────────────────────────────────────────────────────

  const waitersFor = (call: RecordedCall) => {
    for (const waiter of callWaiters)
      if (waiter.methods.includes(call.method) && waiter.predicate(call)) waiter.resolve(call);
  };

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
    const call: RecordedCall = { method, params: params.values, at: Date.now(), ok: false };
    calls.push(call);
    let outcome: unknown;
    try {
      const fault = faults.get(method)?.shift();
      if (fault?.error_code === 429)
        throw new BotApiError(429, `Too Many Requests: retry after ${fault.retry_after}`, {
          retry_after: fault.retry_after,
        });
      if (fault) throw new BotApiError(500, 'Internal Server Error');
      outcome = method === 'getUpdates' ? await getUpdates(params, res) : handlers[method]!(params);
      call.ok = true;
      call.result = outcome;
    } catch (err) {
      outcome = err instanceof BotApiError ? err : new BotApiError(500, `Internal Server Error: ${String(err)}`);
      const { code, message } = outcome as BotApiError;
      call.error = { error_code: code, description: message };
    }
    answer(res, outcome);
    if (call.ok) waitersFor(call);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) =>
      answer(res, err instanceof BotApiError ? err : new BotApiError(400, `Bad Request: ${String(err)}`)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl,
    token,
    me,
    calls,
    get commands() {
      return state.commands;
    },
    get webhook() {
      return state.webhook;
    },

    addFile(bytes, fileOptions = {}) {
      const { file_id, file_unique_id, file_size, file_path } = storeFile(
        bytes,
        fileOptions.mime ?? 'application/octet-stream',
        'documents',
        fileOptions.name,
      );
      return { file_id, file_unique_id, file_size, file_path };
    },

    sendText: (from, text) => userMessage(from, { text }),

    sendCommand(from, command) {
      const length = command.split(/\s/)[0]!.length;
      return userMessage(from, { text: command, entities: [{ type: 'bot_command', offset: 0, length }] });
    },

    sendPhoto(from, bytes, caption) {
      const file = storeFile(bytes, 'image/jpeg', 'photos');
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
      const file = storeFile(bytes, mime_type, 'documents', file_name);
      const document: Document = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        file_name,
        mime_type,
      };
      return userMessage(from, caption ? { document, caption } : { document });
    },

    pressButton(from, messageId, data) {
      const { chat, messages } = chatOf(from);
      const message = messages.get(messageId);
      const buttons = message?.reply_markup?.inline_keyboard.flat() ?? [];
      if (!buttons.some((button) => 'callback_data' in button && button.callback_data === data))
        throw new Error(`message ${messageId} in chat ${chat.id} has no button with callback_data "${data}"`);
      const query: CallbackQuery = {
        id: String(BigInt(from.id) * 1000n + BigInt(nextUpdateId)),
        from: { ...from, is_bot: false },
        // The message as it is when pressed; later edits do not change an update already sent.
        message: structuredClone(message!),
        chat_instance: String(-from.id),
        data,
      } as CallbackQuery;
      callbackQueries.set(query.id, query);
      return pushUpdate({ callback_query: query });
    },

    waitFor(method, predicate = () => true, timeoutMs = 5000) {
      const methods = typeof method === 'string' ? [method] : method;
      const found = calls.find((call) => call.ok && methods.includes(call.method) && predicate(call));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          methods,
          predicate,
          resolve: (call: RecordedCall) => {
            clearTimeout(timer);
            callWaiters.delete(waiter);
            resolve(call);
          },
        };
        const timer = setTimeout(() => {
          callWaiters.delete(waiter);
          const seen = calls.filter((call) => methods.includes(call.method)).map((call) => JSON.stringify(call.params));
          reject(new Error(`no matching ${methods.join('/')} call in ${timeoutMs} ms; calls: [${seen.join(', ')}]`));
        }, timeoutMs);
        callWaiters.add(waiter);
      });
    },

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

    failNext(method, fault) {
      faults.set(method, [...(faults.get(method) ?? []), fault]);
    },

    async close() {
      closed = true;
      for (const poller of pollers) poller.wake();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhookDelivery;
    },
  };
}

// ── Parameters in any of the three encodings ─────────────────────────────────────────────────────

/** Decoded parameters with readers that refuse what Telegram refuses. */
class Params {
  constructor(readonly values: Record<string, unknown>) {}

  string(name: string): string | undefined {
    const value = this.values[name];
    return value === undefined || value === null ? undefined : String(value);
  }

  number(name: string): number | undefined {
    const value = this.values[name];
    if (value === undefined || value === null || value === '') return undefined;
    const number = Number(value);
    if (!Number.isFinite(number)) throw badRequest(`invalid ${name} specified`);
    return number;
  }

  requiredNumber(name: string): number {
    const value = this.number(name);
    if (value === undefined) throw badRequest(`${name} is empty`);
    return value;
  }

  object<T>(name: string): T | undefined {
    const value = this.values[name];
    if (typeof value !== 'string') return value as T | undefined;
    try {
      return JSON.parse(value) as T;
    } catch {
      throw badRequest(`can't parse ${name} JSON object`);
    }
  }
}

function isUpload(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && 'upload' in value;
}

/** Query string, then the body: JSON, form-urlencoded or multipart (with `attach://` references resolved). */
async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const fromForm = (key: string, value: string) => {
    values[key] = STRING_FIELDS.has(key) ? value : parseLoose(value);
  };
  url.searchParams.forEach((value, key) => fromForm(key, value));
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (body.length === 0) return values;

  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return { ...values, ...(JSON.parse(body.toString('utf8')) as object) };
  if (type.startsWith('application/x-www-form-urlencoded')) {
    new URLSearchParams(body.toString('utf8')).forEach((value, key) => fromForm(key, value));
    return values;
  }
  if (type.startsWith('multipart/form-data')) {
    const form = await new Request('http://multipart', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    }).formData();
    const uploads = new Map<string, UploadedFile>();
    for (const [key, value] of form) {
      if (typeof value === 'string') fromForm(key, value);
      else {
        const upload = {
          upload: true as const,
          bytes: Buffer.from(await value.arrayBuffer()),
          name: value.name,
          type: value.type,
        };
        uploads.set(key, upload);
        values[key] = upload;
      }
    }
    for (const [key, value] of Object.entries(values)) {
      const attached = typeof value === 'string' && /^attach:\/\/(.+)$/.exec(value);
      if (attached) values[key] = uploads.get(attached[1]!);
    }
    return values;
  }
  throw badRequest('unsupported content type');
}

function parseLoose(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function answer(res: ServerResponse, outcome: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const body =
    outcome instanceof BotApiError
      ? {
          ok: false,
          error_code: outcome.code,
          description: outcome.message,
          ...(outcome.parameters ? { parameters: outcome.parameters } : {}),
        }
      : { ok: true, result: outcome };
  const status = outcome instanceof BotApiError ? outcome.code : 200;
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

// ── Telegram's HTML parse mode ───────────────────────────────────────────────────────────────────

const ENTITY_TAGS: Record<string, MessageEntity['type']> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** A message in Telegram's HTML that Telegram would refuse ("can't parse entities"). */
export class TelegramHtmlError extends Error {}

/**
 * Parses text in Telegram's HTML parse mode as the Bot API does: only its tags, balanced, with
 * `href` on links, nothing inside code except `<code>` in `<pre>`, `<` always a tag; `&` starts
 * an entity when it names one. Returns the visible text (trimmed, like a sent message) and its entities.
 */
export function parseTelegramHtml(html: string): { text: string; entities: MessageEntity[] } {
  const refuse = (reason: string, at: number) => {
    throw new TelegramHtmlError(
      `can't parse entities: ${reason} at byte offset ${Buffer.byteLength(html.slice(0, at))}`,
    );
  };
  let text = '';
  const entities: MessageEntity[] = [];
  const open: Array<{ tag: string; offset: number; entity: Partial<MessageEntity> }> = [];
  let i = 0;
  while (i < html.length) {
    const char = html[i]!;
    if (char === '&') {
      const entity = /^&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/i.exec(html.slice(i, i + 12));
      const named = entity?.[3] === undefined ? undefined : NAMED_ENTITIES[entity[3].toLowerCase()];
      const code = entity?.[1] ? Number(entity[1]) : entity?.[2] ? parseInt(entity[2], 16) : undefined;
      if (entity && (named !== undefined || (code !== undefined && code <= 0x10ffff))) {
        text += named ?? String.fromCodePoint(code!);
        i += entity[0].length;
        continue;
      }
      text += char;
      i++;
      continue;
    }
    if (char !== '<') {
      text += char;
      i++;
      continue;
    }
    const end = html.indexOf('>', i);
    if (end < 0) refuse('Unclosed start tag', i);
    const inner = html.slice(i + 1, end);
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trim().toLowerCase();
      const top = open.pop();
      if (!top) refuse(`Unexpected end tag`, i);
      if (top!.tag !== name) refuse(`Unmatched end tag, expected "</${top!.tag}>", found "</${name}>"`, i);
      const length = text.length - top!.offset;
      if (length > 0) entities.push({ ...top!.entity, offset: top!.offset, length } as MessageEntity);
    } else {
      const tagMatch = /^([a-z][a-z-]*)\s*([\s\S]*)$/i.exec(inner);
      const name = tagMatch?.[1]?.toLowerCase() ?? '';
      const type = ENTITY_TAGS[name];
      if (!type) refuse(`Unsupported start tag "${name}"`, i);
      const attributes = parseAttributes(tagMatch![2]!);
      const parent = open.at(-1);
      if (parent && (parent.tag === 'code' || (parent.tag === 'pre' && name !== 'code')))
        refuse(`Tag "${name}" is not allowed inside "${parent.tag}"`, i);
      const entity: Partial<MessageEntity> = { type: type! } as Partial<MessageEntity>;
      if (name === 'a') {
        const href = attributes.get('href');
        if (!href) refuse('Tag "a" must have attribute "href"', i);
        Object.assign(entity, { url: href });
      }
      if (name === 'span' && attributes.get('class') !== 'tg-spoiler')
        refuse('Tag "span" must have class "tg-spoiler"', i);
      if (name === 'code' && parent?.tag === 'pre') {
        const language = /^language-(.+)$/.exec(attributes.get('class') ?? '')?.[1];
        if (language) Object.assign(parent.entity, { language });
      }
      open.push({ tag: name, offset: text.length, entity });
    }
    i = end + 1;
  }
  if (open.length > 0) refuse(`Can't find end tag corresponding to start tag "${open.at(-1)!.tag}"`, html.length);
  // A code entity inside pre is part of the pre entity, not one of its own.
  const pres = entities.filter((entity) => entity.type === 'pre');
  const visible = entities.filter((entity) => !(entity.type === 'code' && pres.some((pre) => contains(pre, entity))));
  const leading = text.length - text.trimStart().length;
  const trimmed = text.trim();
  return {
    text: trimmed,
    entities: visible
      .map((entity) => ({ ...entity, offset: entity.offset - leading }))
      .map((entity) => ({ ...entity, length: Math.min(entity.length, trimmed.length - Math.max(entity.offset, 0)) }))
      .filter((entity) => entity.offset >= 0 && entity.length > 0)
      .sort((a, b) => a.offset - b.offset || b.length - a.length),
  };
}

function contains(outer: MessageEntity, inner: MessageEntity): boolean {
  return outer.offset <= inner.offset && outer.offset + outer.length >= inner.offset + inner.length;
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.set(
      match[1]!.toLowerCase(),
      value.replace(/&(lt|gt|amp|quot);/g, (_, name: string) => NAMED_ENTITIES[name]!),
    );
  }
  return attributes;
}

function parseTelegramHtmlOrRefuse(html: string): { text: string; entities: MessageEntity[] } {
  try {
    return parseTelegramHtml(html);
  } catch (err) {
    if (err instanceof TelegramHtmlError) throw badRequest(err.message);
    throw err;
  }
}
