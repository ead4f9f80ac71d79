import { SANDBOX_COOKIE_PATH, type SandboxMessage } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/openapi';
import {
  answered,
  attemptLimiter,
  badRequest,
  notFound,
  routeHandlers,
  tooManyRequests,
  unauthorized,
  type KeyValue,
} from '@gpt/kit';
import type { Request, RequestHandler } from 'express';
import type { BotConfig } from '../config';
import type { ChatLogEntry, SandboxBotApi, SandboxUser } from '@gpt/telegram-sandbox';
import { sandboxSessions, type SandboxSession as Session } from './sessions';

/** The most recent messages a chat read answers with. */
const CHAT_WINDOW = 200;
/** Images the page shows inline; anything else but audio is downloaded, never rendered by the browser. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** The HttpOnly cookie that names the browser's sandbox user. */
const COOKIE = 'tg_sandbox';
const COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${COOKIE}=([\\w-]{1,128})(?:;|$)`);
const DEFAULT_NAME = 'Гость';
/** Audio the page plays (voice messages both ways). */
const isAudio = (mime: string) => /^audio\/[\w.+-]+$/.test(mime);

const sessionRequired = () =>
  unauthorized('Сессия песочницы не найдена или забыта: обновите страницу', 'sandbox_session_required');
const tooMany = (what: string, wait: number) => tooManyRequests(`Слишком много ${what} в песочнице, подождите`, wait);

const userOf = (session: Session): SandboxUser => ({
  id: session.userId,
  first_name: session.firstName,
  language_code: 'ru',
});

const fileUrl = (fileId: string) => apiPath('getTelegramSandboxChatFilesByFileId', { file_id: fileId });

/** A message as the page draws it: text and Telegram's entities (the page renders them, no HTML passes). */
function viewOf(entry: ChatLogEntry): SandboxMessage {
  const { message } = entry;
  const photo = message.photo?.at(-1);
  const sound = message.voice ?? message.audio;
  return {
    message_id: entry.message_id,
    from: entry.from,
    date: message.date,
    edited: message.edit_date !== undefined,
    text: entry.text,
    entities: (message.entities ?? message.caption_entities ?? []).map((entity) => ({
      type: entity.type,
      offset: entity.offset,
      length: entity.length,
      ...('url' in entity ? { url: entity.url } : {}),
      ...('language' in entity && entity.language ? { language: entity.language } : {}),
    })),
    photo: photo ? { url: fileUrl(photo.file_id) } : null,
    document: message.document
      ? { file_name: message.document.file_name ?? 'файл', url: fileUrl(message.document.file_id) }
      : null,
    invoice: message.invoice
      ? {
          title: message.invoice.title,
          description: message.invoice.description,
          currency: message.invoice.currency,
          total_amount: message.invoice.total_amount,
        }
      : null,
    payment: message.successful_payment
      ? { currency: message.successful_payment.currency, total_amount: message.successful_payment.total_amount }
      : null,
    voice: sound ? { url: fileUrl(sound.file_id), duration: sound.duration } : null,
    buttons: (entry.reply_markup?.inline_keyboard ?? []).map((row) =>
      row.map((button) => ({
        text: button.text,
        ...('url' in button ? { url: button.url } : {}),
        ...('callback_data' in button ? { callback_data: button.callback_data } : {}),
      })),
    ),
  };
}

/**
 * The sandbox's Bot API, mounted under the sandbox's path: the Bot API the bot calls (`/bot<token>/<method>`,
 * `/file/bot<token>/<path>`); not a route of the site's API.
 */
export function sandboxBotApi(sandbox: SandboxBotApi): RequestHandler {
  return (req, res, next) => {
    if (/^\/(file\/)?bot[^/]+\//.test(req.path)) void sandbox.handle(req, res);
    else next();
  };
}

/**
 * The user's side of the sandbox for the site's /telegram-sandbox page (`/session`, `/chat…` under
 * /api/telegram/sandbox). Each browser plays the user its cookie names and no other; users, their actions
 * and reads are limited, and the Bot API's memory is bounded (see `telegramSandbox`).
 */
export function sandboxChatRoutes(sandbox: SandboxBotApi, deps: { config: BotConfig; kv: KeyValue }) {
  const { config, kv } = deps;
  const sessions = sandboxSessions({
    maxUsers: config.TELEGRAM_SANDBOX_MAX_USERS,
    onForget: (userId) => sandbox.forgetChat(userId),
  });
  const perMinute = (name: string, points: number) => attemptLimiter(kv, { name, points, windowSec: 60 });
  const newUsers = perMinute('sandbox-new-users', config.TELEGRAM_SANDBOX_NEW_USERS_PER_MINUTE);
  const actions = perMinute('sandbox-actions', config.TELEGRAM_SANDBOX_ACTIONS_PER_MINUTE);
  const reads = perMinute('sandbox-reads', config.TELEGRAM_SANDBOX_READS_PER_MINUTE);

  const sessionOf = (req: Request): Session => {
    const session = sessions.find(COOKIE_VALUE.exec(req.headers.cookie ?? '')?.[1]);
    if (!session) throw sessionRequired();
    return session;
  };
  /** The session's user, once its action is counted. */
  const actingUser = async (req: Request): Promise<SandboxUser> => {
    const session = sessionOf(req);
    const wait = await actions.consume(String(session.userId));
    if (wait > 0) throw tooMany('действий', wait);
    return userOf(session);
  };
  const sessionView = (session: Session) => ({ user_id: session.userId, first_name: session.firstName });

  return routeHandlers('bot', {
    postTelegramSandboxSession: async ({ body: { first_name, fresh }, req, res }) => {
      const known = fresh ? undefined : sessions.find(COOKIE_VALUE.exec(req.headers.cookie ?? '')?.[1]);
      if (known) return sessionView(known);
      const wait = await newUsers.consume('all');
      if (wait > 0) throw tooMany('новых пользователей', wait);
      const { secret, session } = sessions.create(first_name ?? DEFAULT_NAME);
      res.cookie(COOKIE, secret, {
        httpOnly: true,
        sameSite: 'strict',
        secure: config.SITE_URL.startsWith('https:'),
        path: SANDBOX_COOKIE_PATH,
      });
      return sessionView(session);
    },

    getTelegramSandboxChat: async ({ query: { after, wait: waitSec }, req, res }) => {
      const { userId } = sessionOf(req);
      const wait = await reads.consume(String(userId));
      if (wait > 0) throw tooMany('запросов', wait);
      if (after !== undefined && waitSec) {
        const gone = new AbortController();
        res.once('close', () => gone.abort());
        await sandbox.chatChange(userId, after, waitSec * 1000, gone.signal);
      }
      return {
        version: sandbox.chatVersion(userId),
        bot: { first_name: sandbox.me.first_name, username: sandbox.me.username },
        messages: sandbox.chatLog(userId).slice(-CHAT_WINDOW).map(viewOf),
      };
    },

    postTelegramSandboxChatMessages: async ({ body: { text }, req }) => {
      const user = await actingUser(req);
      const update = text.startsWith('/') ? sandbox.sendCommand(user, text) : sandbox.sendText(user, text);
      return { message_id: update.message!.message_id };
    },

    postTelegramSandboxChatUploads: async ({ body: { kind, file_name, mime_type, data, caption, duration }, req }) => {
      const user = await actingUser(req);
      const bytes = Buffer.from(data, 'base64');
      if (kind === 'photo' && !INLINE_IMAGES.has(mime_type))
        throw badRequest('Фото должно быть в формате JPEG, PNG, GIF или WebP', 'unsupported_image');
      if (kind === 'voice' && !isAudio(mime_type))
        throw badRequest('Голосовое сообщение должно быть аудиофайлом (ogg, mp3, m4a, wav…)', 'unsupported_audio');
      const update =
        kind === 'photo'
          ? sandbox.sendPhoto(user, bytes, caption || undefined, mime_type)
          : kind === 'voice'
            ? sandbox.sendVoice(user, bytes, { duration: Math.max(1, duration ?? 1), mime_type })
            : sandbox.sendDocument(user, bytes, {
                file_name,
                mime_type,
                ...(caption ? { caption } : {}),
              });
      return { message_id: update.message!.message_id };
    },

    postTelegramSandboxChatButtons: async ({ body: { message_id, data }, req }) => {
      const user = await actingUser(req);
      if (!sandbox.pressButton(user, message_id, data))
        throw notFound('У этого сообщения нет такой кнопки', 'button_not_found');
      return { message_id };
    },

    postTelegramSandboxChatPayments: async ({ body: { message_id }, req }) => {
      const user = await actingUser(req);
      if (!sandbox.chatLog(user.id).some((entry) => entry.message_id === message_id && entry.message.invoice))
        throw notFound('Счёт не найден', 'invoice_not_found');
      const paid = await sandbox.payInvoice(user, message_id);
      return paid.ok ? { ok: true } : paid;
    },

    getTelegramSandboxChatFilesByFileId: ({ params: { file_id }, req, res }) => {
      const { userId } = sessionOf(req);
      const file = sandbox.file(file_id);
      if (!file || file.chatId !== userId) throw notFound('Файл не найден', 'file_not_found');
      if (INLINE_IMAGES.has(file.mime) || isAudio(file.mime)) res.type(file.mime).set('Content-Disposition', 'inline');
      // attachment() encodes any name safely, and would guess a type from it: the type is set after.
      else res.attachment(file.name ?? file.file_path.split('/').pop()).type('application/octet-stream');
      res.send(file.bytes);
      return answered;
    },
  });
}
