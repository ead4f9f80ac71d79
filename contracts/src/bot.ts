import { z } from 'zod';
import { TelegramId } from './common';

/**
 * Bot service: the Telegram bot. It calls the other services' `/api/bot/*` routes like any outside
 * bot would; its own routes are Telegram's webhook and what the site shows of the bot.
 */

/** `GET /api/telegram/info`: the bot's username (getMe, or TELEGRAM_BOT_USERNAME); null while unknown. */
export const TelegramBotInfo = z
  .object({
    username: z.string().nullable(),
    url: z.url().nullable().meta({
      description: 'https://t.me/<username>, for the site’s «Открыть бота»; <site>/telegram-sandbox on the sandbox',
    }),
    sandbox: z.boolean().meta({ description: 'The bot talks to the local sandbox Bot API, not to Telegram' }),
  })
  .meta({ id: 'TelegramBotInfo' });
export type TelegramBotInfo = z.infer<typeof TelegramBotInfo>;

/** `POST /api/telegram/webhook`: an Update of the Telegram Bot API (checked by grammY; only update_id here). */
export const TelegramUpdate = z.looseObject({ update_id: z.int() }).meta({ id: 'TelegramUpdate' });
export type TelegramUpdate = z.infer<typeof TelegramUpdate>;

// ---------------------------------------------------------------------------------------------
// The Telegram sandbox (no bot token, outside production): the user's side of its chats

/** Where the bot service serves its sandbox: the Bot API the bot calls, and the user's side (`/session`, `/chat…`). */
export const SANDBOX_PATH = '/api/telegram/sandbox';
/** Where the sandbox's cookie is sent: its routes only. */
export const SANDBOX_COOKIE_PATH = SANDBOX_PATH;

/**
 * `POST /api/telegram/sandbox/session`: the pseudo Telegram user this browser plays. The server
 * picks the user and keeps it behind an HttpOnly cookie; the browser never names a user. An existing
 * session is answered as it is, unless `fresh` asks for a new user.
 */
export const SandboxSessionRequest = z
  .object({
    first_name: z.string().trim().min(1).max(64).optional(),
    fresh: z.boolean().optional().meta({ description: 'A new user, even when this browser has one' }),
  })
  .meta({ id: 'SandboxSessionRequest' });
export type SandboxSessionRequest = z.infer<typeof SandboxSessionRequest>;

export const SandboxSession = z
  .object({
    user_id: TelegramId.meta({ description: 'The pseudo Telegram user id (the chat id too)' }),
    first_name: z.string(),
  })
  .meta({ id: 'SandboxSession' });
export type SandboxSession = z.infer<typeof SandboxSession>;

/** `POST /api/telegram/sandbox/chat/messages`: text, or a command when it starts with `/`. */
export const SandboxSendRequest = z
  .object({ text: z.string().trim().min(1, 'Введите сообщение').max(4096) })
  .meta({ id: 'SandboxSendRequest' });
export type SandboxSendRequest = z.infer<typeof SandboxSendRequest>;

/** A file name as it is stored and sent: no control characters (a line break would split a header). */
export const FileName = z
  .string()
  .trim()
  .min(1, 'Укажите имя файла')
  .max(255)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u, 'Имя файла не должно содержать управляющих символов и переводов строки');

/**
 * `POST /api/telegram/sandbox/chat/uploads`: a photo, a document or a voice message (an audio file
 * with its length in seconds), base64 in JSON (the body stays under 1 MB).
 */
export const SandboxUploadRequest = z
  .object({
    kind: z.enum(['photo', 'document', 'voice']),
    duration: z.int().min(0).max(86_400).optional().meta({ description: 'Seconds of a voice message' }),
    file_name: FileName,
    mime_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'Неверный тип файла'),
    data: z.base64().min(1, 'Файл пуст'),
    caption: z.string().trim().max(1024).optional(),
  })
  .meta({ id: 'SandboxUploadRequest' });
export type SandboxUploadRequest = z.infer<typeof SandboxUploadRequest>;

/** `POST /api/telegram/sandbox/chat/buttons`: the press of an inline button with callback data. */
export const SandboxPressRequest = z
  .object({ message_id: z.int().positive(), data: z.string().min(1).max(64) })
  .meta({ id: 'SandboxPressRequest' });
export type SandboxPressRequest = z.infer<typeof SandboxPressRequest>;

/** `POST /api/telegram/sandbox/chat/payments`: the user pays an invoice of the bot (in Telegram Stars). */
export const SandboxPayRequest = z.object({ message_id: z.int().positive() }).meta({ id: 'SandboxPayRequest' });
export type SandboxPayRequest = z.infer<typeof SandboxPayRequest>;

/** The bot's answer to the pre-checkout: paid, or declined with the bot's message. */
export const SandboxPayResponse = z
  .object({ ok: z.boolean(), error_message: z.string().optional() })
  .meta({ id: 'SandboxPayResponse' });
export type SandboxPayResponse = z.infer<typeof SandboxPayResponse>;

/** What the user's actions answer: the message (or the pressed one) in the chat. */
export const SandboxSent = z.object({ message_id: z.int() }).meta({ id: 'SandboxSent' });
export type SandboxSent = z.infer<typeof SandboxSent>;

/** `GET /api/telegram/sandbox/chat`: the session's chat now, or once it changes after `after` (long polling). */
export const SandboxChatQuery = z.object({
  after: z.coerce.number().pipe(z.int().min(0)).optional(),
  wait: z.coerce
    .number()
    .pipe(z.int().min(0).max(25))
    .optional()
    .meta({ description: 'Seconds to wait for a change after `after` (long polling)' }),
});
export type SandboxChatQuery = z.infer<typeof SandboxChatQuery>;

/** `GET /api/telegram/sandbox/chat/files/{file_id}`. */
export const SandboxFileParams = z.object({ file_id: z.string().regex(/^[\w-]{1,128}$/) });

const SandboxEntity = z.object({
  type: z.string(),
  offset: z.int(),
  length: z.int(),
  url: z.string().optional(),
  language: z.string().optional(),
});

const SandboxButton = z.object({
  text: z.string(),
  url: z.string().optional(),
  callback_data: z.string().optional(),
});

/** A message as the user sees it: text (a caption for media) with Telegram's entities, never HTML. */
export const SandboxMessage = z
  .object({
    message_id: z.int(),
    from: z.enum(['user', 'bot']),
    date: z.int(),
    edited: z.boolean(),
    text: z.string(),
    entities: z.array(SandboxEntity),
    photo: z.object({ url: z.string() }).nullable(),
    document: z.object({ file_name: z.string(), url: z.string() }).nullable(),
    invoice: z
      .object({ title: z.string(), description: z.string(), currency: z.string(), total_amount: z.int() })
      .nullable()
      .meta({ description: 'An invoice of the bot, paid with the pay button' }),
    payment: z
      .object({ currency: z.string(), total_amount: z.int() })
      .nullable()
      .meta({ description: "The user's payment of an invoice (Telegram's successful_payment)" }),
    voice: z
      .object({ url: z.string(), duration: z.int() })
      .nullable()
      .meta({ description: 'A voice message or audio file, played on the page' }),
    buttons: z.array(z.array(SandboxButton)),
  })
  .meta({ id: 'SandboxMessage' });
export type SandboxMessage = z.infer<typeof SandboxMessage>;

export const SandboxChat = z
  .object({
    version: z.int().meta({ description: 'Grows with every change; pass it as `after` to wait for the next' }),
    bot: z.object({ first_name: z.string(), username: z.string() }),
    messages: z.array(SandboxMessage),
  })
  .meta({ id: 'SandboxChat' });
export type SandboxChat = z.infer<typeof SandboxChat>;
