import { z } from 'zod';
import { IsoDateTime } from './common';

/**
 * The web chat: the user's conversations with the models, the same ones the bot continues (one
 * engine, two doors: docs/architecture.md, The assistant). Served by the bot service to a signed-in user.
 */

/** Which door a message came through. */
export const ChatDoor = z.enum(['telegram', 'web']);
export type ChatDoor = z.infer<typeof ChatDoor>;
/** A door as the admin history names it. */
export const CHAT_DOOR_LABELS: Record<ChatDoor, string> = { telegram: 'Telegram', web: 'веб-чат' };

export const ChatMessageStatus = z.enum(['done', 'streaming', 'stopped', 'failed']);
export type ChatMessageStatus = z.infer<typeof ChatMessageStatus>;

/** The longest question the web chat takes, in characters. */
export const CHAT_MESSAGE_MAX_CHARS = 10_000;
/**
 * «10 000»: a whole number as a person reads it, thousands set apart by a space (ru-RU groups with a no-break
 * space; a plain one here). Without Intl: the messages are built on import, and ICU's first call costs 40 ms.
 */
const grouped = (value: number) => String(value).replace(/\B(?=(\d{3})+$)/g, ' ');
/** The longest conversation title. */
export const CHAT_TITLE_MAX_CHARS = 100;

export const ChatConversation = z
  .object({
    id: z.string(),
    title: z.string(),
    updatedAt: IsoDateTime,
    lastDoor: ChatDoor,
    current: z.boolean().meta({ description: 'The one the bot continues: the last used at either door' }),
  })
  .meta({ id: 'ChatConversation' });
export type ChatConversation = z.infer<typeof ChatConversation>;

export const ChatMessage = z
  .object({
    id: z.string(),
    role: z.enum(['user', 'assistant']),
    text: z.string(),
    model: z.string().nullable(),
    cost: z.int().nullable().meta({ description: 'Credits charged for the answer' }),
    door: ChatDoor,
    createdAt: IsoDateTime,
    status: ChatMessageStatus,
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatConversationList = z.object({ items: z.array(ChatConversation) }).meta({ id: 'ChatConversationList' });
export type ChatConversationList = z.infer<typeof ChatConversationList>;

export const ChatConversationDetail = z
  .object({
    conversation: ChatConversation,
    messages: z.array(ChatMessage),
    running: z.object({ answerId: z.string() }).nullable(),
  })
  .meta({ id: 'ChatConversationDetail' });
export type ChatConversationDetail = z.infer<typeof ChatConversationDetail>;

/** A conversation's or an answer's id as it comes in the path; one of another user, or none, is 404. */
export const ChatConversationParams = z.object({ id: z.string().max(100) });
export const ChatAnswerParams = z.object({ answerId: z.string().max(100) });

export const ChatNewConversationRequest = z.object({}).meta({ id: 'ChatNewConversationRequest' });

export const ChatRenameRequest = z
  .object({
    title: z
      .string({ error: 'Введите название чата.' })
      .trim()
      .min(1, { error: 'Введите название чата.', abort: true })
      .max(CHAT_TITLE_MAX_CHARS, { error: `Название чата — не длиннее ${CHAT_TITLE_MAX_CHARS} символов.` }),
  })
  .meta({ id: 'ChatRenameRequest' });
export type ChatRenameRequest = z.infer<typeof ChatRenameRequest>;

export const ChatAskRequest = z
  .object({
    text: z
      .string({ error: 'Напишите вопрос.' })
      .trim()
      .min(1, { error: 'Напишите вопрос.', abort: true })
      .max(CHAT_MESSAGE_MAX_CHARS, {
        error: `Сообщение слишком длинное: не больше ${grouped(CHAT_MESSAGE_MAX_CHARS)} символов.`,
      }),
  })
  .meta({ id: 'ChatAskRequest' });
export type ChatAskRequest = z.infer<typeof ChatAskRequest>;

export const ChatAskResponse = z.object({ answerId: z.string(), message: ChatMessage }).meta({ id: 'ChatAskResponse' });
export type ChatAskResponse = z.infer<typeof ChatAskResponse>;

/** `?lastEventId=` (or the `Last-Event-ID` header): the character offset of the text already received. */
export const ChatEventsQuery = z.object({
  lastEventId: z.coerce.number().int().min(0).optional(),
});

/** The data of the stream's events (`event: delta`, `event: done`, `event: error`). */
export const ChatDeltaEvent = z.object({ text: z.string() });
export const ChatDoneEvent = z.object({
  status: ChatMessageStatus.exclude(['streaming']),
  cost: z.int().nullable(),
  model: z.string().nullable(),
  message: ChatMessage,
});
export type ChatDoneEvent = z.infer<typeof ChatDoneEvent>;
/** `code` as in an error answer's body: `answer_not_found` when the answer is gone (refused before it began, deleted). */
export const ChatErrorEvent = z.object({ error: z.string(), code: z.string() });
export type ChatErrorEvent = z.infer<typeof ChatErrorEvent>;

export const ChatStopResponse = z.object({}).meta({ id: 'ChatStopResponse' });

export const ChatSearchQuery = z.object({
  q: z
    .string({ error: 'Введите слово для поиска.' })
    .trim()
    .min(1, { error: 'Введите слово для поиска.', abort: true })
    .max(200, { error: 'Запрос поиска — не длиннее 200 символов.' }),
});
export type ChatSearchQuery = z.infer<typeof ChatSearchQuery>;

export const ChatSearchHit = z.object({
  conversationId: z.string(),
  messageId: z.string(),
  title: z.string(),
  snippet: z.string(),
  createdAt: IsoDateTime,
});
export const ChatSearchResponse = z.object({ items: z.array(ChatSearchHit) }).meta({ id: 'ChatSearchResponse' });
export type ChatSearchResponse = z.infer<typeof ChatSearchResponse>;

export const ChatPreferences = z
  .object({
    model: z.string(),
    models: z.array(z.object({ id: z.string(), name: z.string() })),
    modeId: z.string().nullable(),
    modes: z.array(z.object({ id: z.string(), name: z.string() })),
    instructions: z.string(),
  })
  .meta({ id: 'ChatPreferences' });
export type ChatPreferences = z.infer<typeof ChatPreferences>;

/** The bot's /instructions limit, shared. */
export const CHAT_INSTRUCTIONS_MAX_CHARS = 1000;

export const ChatPreferencesUpdate = z
  .object({
    model: z.string().trim().min(1, { error: 'Выберите модель.' }).max(100).optional(),
    modeId: z.string().max(20).nullable().optional(),
    instructions: z
      .string()
      .trim()
      .max(CHAT_INSTRUCTIONS_MAX_CHARS, {
        error: `Инструкции — не длиннее ${grouped(CHAT_INSTRUCTIONS_MAX_CHARS)} символов.`,
      })
      .optional(),
  })
  .meta({ id: 'ChatPreferencesUpdate' });
export type ChatPreferencesUpdate = z.infer<typeof ChatPreferencesUpdate>;

// Signing in from Telegram (auth): the bot's single-use link and the Telegram Login Widget.

/** The path of the site's page that signs in with the bot's single-use link (`/telegram-sign-in/<token>`). */
export const TELEGRAM_SIGN_IN_PAGE = '/telegram-sign-in';

export const BotSignInLinkRequest = z.object({ telegram_id: z.int().positive() }).meta({ id: 'BotSignInLinkRequest' });
export type BotSignInLinkRequest = z.infer<typeof BotSignInLinkRequest>;

export const BotSignInLinkResponse = z
  .object({ token: z.string(), expires_at: IsoDateTime })
  .meta({ id: 'BotSignInLinkResponse' });
export type BotSignInLinkResponse = z.infer<typeof BotSignInLinkResponse>;

export const TelegramSignInLinkRequest = z
  .object({ token: z.string({ error: 'Ссылка для входа неполная.' }).min(1).max(200) })
  .meta({ id: 'TelegramSignInLinkRequest' });
export type TelegramSignInLinkRequest = z.infer<typeof TelegramSignInLinkRequest>;

export const TelegramWidgetInfo = z.object({ botUsername: z.string().nullable() }).meta({ id: 'TelegramWidgetInfo' });
export type TelegramWidgetInfo = z.infer<typeof TelegramWidgetInfo>;

/** What the Telegram Login Widget hands the page (https://core.telegram.org/widgets/login). */
export const TelegramWidgetLogin = z
  .object({
    id: z.coerce.number().int().positive(),
    first_name: z.string().max(256),
    last_name: z.string().max(256).optional(),
    username: z.string().max(64).optional(),
    photo_url: z.string().max(1000).optional(),
    auth_date: z.coerce.number().int().positive(),
    hash: z.string().regex(/^[0-9a-f]{64}$/, { error: 'Не удалось проверить вход через Telegram.' }),
  })
  .meta({ id: 'TelegramWidgetLogin' });
export type TelegramWidgetLogin = z.infer<typeof TelegramWidgetLogin>;
