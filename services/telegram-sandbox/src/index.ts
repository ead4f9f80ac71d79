import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BotCommand, UserFromGetMe, UserProfilePhotos } from 'grammy/types';
import { createChats } from './chats';
import { createFiles, fileInfo, fileOfMessage } from './files';
import { floodControl } from './flood-control';
import { createMessages } from './messages';
import { answer, BotApiError, badRequest, Params, readParams, type Handler } from './params';
import { createPayments } from './payments';
import type {
  BotApiCall,
  SandboxBotApi,
  SandboxBotApiLimits,
  SandboxBotApiOptions,
  SandboxTimeouts,
  StoredFile,
} from './types';
import { createUpdates } from './updates';

export { fasterFloodLimits, TELEGRAM_FLOOD_LIMITS, type FloodLimits } from './flood-control';
export { parseTelegramHtml, TelegramHtmlError } from './html';
export { BotApiError } from './params';
export type * from './types';

const TELEGRAM_TIMEOUTS: SandboxTimeouts = { preCheckoutMs: 10_000, callbackQueryMs: 15_000 };

const NO_LIMITS: SandboxBotApiLimits = { maxFileBytes: Infinity, maxChatMessages: Infinity };

/**
 * The Telegram Bot API in memory, speaking its real protocol over HTTP (JSON, form-urlencoded and
 * multipart bodies, long polling, webhooks, files, HTML formatting rules and its error answers),
 * with the user's side of the chats as functions. Tests run it as a fake Telegram; without a
 * bot token the bot service runs it as its local sandbox. Everything is lost when it stops.
 * Its parts: updates (the queue, polling, the webhook), messages, files and payments.
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
  let commands: BotCommand[] = [];

  const updates = createUpdates();
  const chats = createChats(me.id, limits.maxChatMessages);
  const files = createFiles(limits.maxFileBytes);
  const messages = createMessages({ me, chats, files, updates, callbackQueryMs: timeouts.callbackQueryMs });
  const payments = createPayments({ chats, messages, updates, preCheckoutMs: timeouts.preCheckoutMs });

  /** Each user's profile photos, newest first: one size each. */
  const profilePhotos = new Map<number, { file: StoredFile; size: number }[]>();

  const handlers: Record<string, Handler> = {
    getMe: () => me,

    setMyCommands: (params) => {
      const list = params.object<BotCommand[]>('commands');
      if (!Array.isArray(list)) throw badRequest('parameter "commands" is required');
      for (const { command, description } of list) {
        if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest('BOT_COMMAND_INVALID');
        if (!description || description.length > 256) throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
      }
      commands = list;
      return true;
    },

    // Telegram's server clamps offset and limit (1–100, 100 by default) rather than refusing them.
    getUserProfilePhotos: (params) => {
      const userId = params.number('user_id');
      if (userId === undefined || !Number.isSafeInteger(userId) || userId <= 0)
        throw badRequest('invalid user_id specified');
      if (!chats.userOf(userId)) throw badRequest('user not found');
      const all = profilePhotos.get(userId) ?? [];
      const offset = Math.max(0, Math.trunc(params.number('offset') ?? 0));
      const limit = Math.min(100, Math.max(1, Math.trunc(params.number('limit') ?? 100)));
      return {
        total_count: all.length,
        photos: all
          .slice(offset, offset + limit)
          .map(({ file, size }) => [{ ...fileOfMessage(file), width: size, height: size }]),
      } satisfies UserProfilePhotos;
    },

    ...updates.handlers,
    ...messages.handlers,
    ...files.handlers,
    ...payments.handlers,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && download) {
      files.download(res, download[1] === token, download[2]!);
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
      if (chatId !== undefined && messages.isBlocked(chatId))
        throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
      flood?.check(method, chatId);
      // The one method that waits (a long poll); the others answer at once, so the flood check and
      // the spending of a message stay one step.
      outcome = method === 'getUpdates' ? await updates.getUpdates(params, res) : handlers[method]!(params);
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
      return commands;
    },
    get webhook() {
      return updates.webhook;
    },
    get allowedUpdates() {
      return updates.allowedUpdates;
    },

    handle: (req, res) =>
      handle(req, res).catch((err: unknown) =>
        answer(res, err instanceof BotApiError ? err : new BotApiError(400, `Bad Request: ${String(err)}`)),
      ),

    addFile: (bytes, fileOptions = {}) =>
      fileInfo(
        files.store(bytes, fileOptions.mime ?? 'application/octet-stream', 'documents', { name: fileOptions.name }),
      ),
    file: files.get,
    setProfilePhoto(userId, jpeg, size = 160) {
      const file = files.store(jpeg, 'image/jpeg', 'profile_photos');
      profilePhotos.set(userId, [{ file, size }, ...(profilePhotos.get(userId) ?? [])]);
    },

    ...messages.userSide,
    payInvoice: payments.payInvoice,
    paySubscriptionLink: payments.paySubscriptionLink,
    renewSubscription: payments.renewSubscription,
    subscriptions: payments.subscriptions,
    redeliver: updates.redeliver,
    charges: payments.charges,

    chatLog: chats.log,
    chatVersion: chats.version,
    chatChange: chats.change,

    forgetChat(chatId) {
      chats.forget(chatId);
      files.forgetChat(chatId);
    },

    async close() {
      const delivered = updates.close();
      chats.close();
      await delivered;
    },
  };
}
