import { z } from 'zod';
import {
  BigIdParam,
  Credits,
  CreditsAmount,
  Id,
  IdParam,
  IsoDateTime,
  listQuery,
  MAX_SERIAL_ID,
  nullableText,
  optionalLimitParam,
  Pagination,
  QueryId,
  queryText,
  requiredText,
  TelegramId,
  TelegramIdInput,
  UsdAmount,
  UsdPriceInput,
} from './common';
import { ChatDoor } from './chat';

/**
 * Chat-history service: AI models with per-1M-token prices, the message history of the bot,
 * and the system key/value settings. Dollars are decimal strings with 6+ decimals.
 */

// ---------------------------------------------------------------------------------------------
// AI models

export const AiModel = z
  .object({
    id: Id,
    model: z.string(),
    description: z.string().nullable(),
    input_price_per_1m: UsdAmount.meta({ description: 'Dollars per 1M input tokens' }),
    output_price_per_1m: UsdAmount.meta({ description: 'Dollars per 1M output tokens' }),
    image_price: UsdAmount.nullable().meta({
      description: 'Dollars per generated image; set only for an image-generation model',
    }),
    transcription_price_per_minute: UsdAmount.nullable().meta({
      description: 'Dollars per minute of audio; set only for a speech-recognition model',
    }),
    speech_price_per_1k_chars: UsdAmount.nullable().meta({
      description: 'Dollars per 1 000 characters read aloud; set only for a speech model',
    }),
    is_active: z.boolean(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'AiModel' });
export type AiModel = z.infer<typeof AiModel>;

/**
 * Body of `POST /api/admin/models` and `PUT /api/admin/models/{id}`; prices ≥ 0, at most 6 decimals.
 * A model with an `image_price` generates images, one with a `transcription_price_per_minute`
 * recognises speech, one with a `speech_price_per_1k_chars` reads text aloud; none of them chats.
 */
export const AiModelInput = z
  .object({
    model: requiredText(100, 'Укажите название модели'),
    description: nullableText(2000),
    input_price_per_1m: UsdPriceInput,
    output_price_per_1m: UsdPriceInput,
    image_price: UsdPriceInput.nullable()
      .default(null)
      .meta({ description: 'Dollars per generated image, at most 6 decimals; null: not an image model' }),
    transcription_price_per_minute: UsdPriceInput.nullable()
      .default(null)
      .meta({ description: 'Dollars per minute of audio, at most 6 decimals; null: not a speech-recognition model' }),
    speech_price_per_1k_chars: UsdPriceInput.nullable()
      .default(null)
      .meta({ description: 'Dollars per 1 000 characters, at most 6 decimals; null: not a speech model' }),
    is_active: z.boolean().default(true),
  })
  .meta({ id: 'AiModelInput' });
export type AiModelInput = z.infer<typeof AiModelInput>;

export const AiModelResponse = z.object({ success: z.literal(true), model: AiModel }).meta({ id: 'AiModelResponse' });
export type AiModelResponse = z.infer<typeof AiModelResponse>;

export const ADMIN_MODELS_SORT_FIELDS = [
  'id',
  'model',
  'input_price_per_1m',
  'output_price_per_1m',
  'is_active',
  'created_at',
] as const;
export const AdminModelsSortField = z.enum(ADMIN_MODELS_SORT_FIELDS);
export type AdminModelsSortField = z.infer<typeof AdminModelsSortField>;

/** `GET /api/admin/models`: default sort created_at descending. */
export const AdminModelsQuery = listQuery({
  sortFields: ADMIN_MODELS_SORT_FIELDS,
  defaultSort: { field: 'created_at', order: 'desc' },
});
export type AdminModelsQuery = z.infer<typeof AdminModelsQuery>;

export const AdminModelsResponse = z
  .object({ models: z.array(AiModel), total: z.int().min(0) })
  .meta({ id: 'AdminModelsResponse' });
export type AdminModelsResponse = z.infer<typeof AdminModelsResponse>;

export const ModelIdParams = z.object({ id: IdParam });
export type ModelIdParams = z.infer<typeof ModelIdParams>;

/** `GET /api/bot/models`: the active models. */
export const BotModelsResponse = z.object({ models: z.array(AiModel) }).meta({ id: 'BotModelsResponse' });
export type BotModelsResponse = z.infer<typeof BotModelsResponse>;

// ---------------------------------------------------------------------------------------------
// Chat modes: admin-managed system prompts the bot's users choose from

/** The longest system prompt of a mode. */
export const MODE_PROMPT_MAX_CHARS = 4000;

export const ChatMode = z
  .object({
    id: Id,
    name: z.string(),
    emoji: z.string(),
    description: z.string(),
    system_prompt: z.string(),
    is_active: z.boolean(),
    sort_order: z.int(),
    is_default: z.boolean().meta({ description: 'The mode of a user who has not chosen one; exactly one is' }),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'ChatMode' });
export type ChatMode = z.infer<typeof ChatMode>;

const sortOrderError = 'Порядок — целое число от 0 до 10 000';

/** Body of `POST /api/admin/modes` and `PUT /api/admin/modes/{id}`. */
export const ChatModeInput = z
  .object({
    name: requiredText(100, 'Укажите название режима', 'Название должно быть не длиннее 100 символов'),
    emoji: requiredText(16, 'Укажите эмодзи режима', 'Эмодзи должно быть не длиннее 16 символов'),
    description: requiredText(200, 'Укажите краткое описание', 'Описание должно быть не длиннее 200 символов'),
    system_prompt: requiredText(
      MODE_PROMPT_MAX_CHARS,
      'Укажите системный промпт',
      'Системный промпт должен быть не длиннее 4 000 символов',
    ),
    is_active: z.boolean({ error: 'Ожидается true или false' }).default(true),
    sort_order: z
      .int({ error: sortOrderError })
      .min(0, { error: sortOrderError })
      .max(10_000, { error: sortOrderError })
      .default(0),
    is_default: z.boolean({ error: 'Ожидается true или false' }).default(false),
  })
  .refine((mode) => !mode.is_default || mode.is_active, {
    error: 'Режим по умолчанию должен быть активным',
    path: ['is_active'],
  })
  .meta({ id: 'ChatModeInput' });
export type ChatModeInput = z.infer<typeof ChatModeInput>;

export const ChatModeResponse = z.object({ success: z.literal(true), mode: ChatMode }).meta({ id: 'ChatModeResponse' });
export type ChatModeResponse = z.infer<typeof ChatModeResponse>;

export const ADMIN_MODES_SORT_FIELDS = ['id', 'name', 'sort_order', 'is_active', 'is_default', 'created_at'] as const;
export const AdminModesSortField = z.enum(ADMIN_MODES_SORT_FIELDS);
export type AdminModesSortField = z.infer<typeof AdminModesSortField>;

/** `GET /api/admin/modes`: default sort sort_order ascending; `q` searches name, description and prompt. */
export const AdminModesQuery = listQuery({
  sortFields: ADMIN_MODES_SORT_FIELDS,
  defaultSort: { field: 'sort_order', order: 'asc' },
}).extend({ q: queryText().meta({ description: 'Text in the name, description or system prompt' }) });
export type AdminModesQuery = z.infer<typeof AdminModesQuery>;

export const AdminModesResponse = z
  .object({ modes: z.array(ChatMode), total: z.int().min(0) })
  .meta({ id: 'AdminModesResponse' });
export type AdminModesResponse = z.infer<typeof AdminModesResponse>;

export const ModeIdParams = z.object({ id: IdParam });
export type ModeIdParams = z.infer<typeof ModeIdParams>;

/** `GET /api/bot/modes`: the active modes in their sort order. */
export const BotModesResponse = z.object({ modes: z.array(ChatMode) }).meta({ id: 'BotModesResponse' });
export type BotModesResponse = z.infer<typeof BotModesResponse>;

// ---------------------------------------------------------------------------------------------
// Message history

/** Status of a recorded bot message; an `error` message costs nothing. */
export const MessageStatus = z.enum(['success', 'error'], { error: 'Статус сообщения: success или error' });
export type MessageStatus = z.infer<typeof MessageStatus>;

/** A message of the history (docs/product.md, Data); costs are the model's prices at the time it was recorded. */
export const HistoryMessage = z
  .object({
    id: Id,
    user_id: Id,
    telegram_id: TelegramId.nullable(),
    username: z.string().nullable(),
    first_name: z.string().nullable(),
    email: z
      .string()
      .nullable()
      .meta({ description: "The user's site account e-mail (null for a Telegram-only account)" }),
    last_name: z.string().nullable(),
    user_deleted: z.boolean(),
    model: z.string(),
    status: MessageStatus,
    created_at: IsoDateTime,
    user_message: z.string(),
    message: z.string().meta({ description: 'Same as user_message (the spec shows it under both names)' }),
    bot_response: z.string().nullable(),
    image_path: z.string().nullable().meta({ description: 'URL of the attached image, served through the gateway' }),
    input_tokens: z.int().min(0),
    output_tokens: z.int().min(0),
    input_cost: UsdAmount,
    output_cost: UsdAmount,
    total_cost: UsdAmount,
    cost: Credits.meta({ description: 'Credits charged' }),
    error_message: z.string().nullable(),
    image_count: z.int().min(0).meta({ description: 'Images the model generated' }),
    hold_id: z.string().nullable().meta({ description: "The bot's billing hold for this call, if any" }),
    door: ChatDoor.meta({ description: 'Where the user asked: the bot or the web chat' }),
    mode: z.string().nullable().meta({ description: 'The chat mode the user was in (its name then)' }),
    audio_seconds: z.int().min(0).meta({ description: "Seconds of the user's voice message that were transcribed" }),
    transcription_cost: UsdAmount.meta({ description: 'Dollars of the transcription (part of total_cost)' }),
    speech_characters: z.int().min(0).meta({ description: 'Characters of the answer read aloud' }),
    speech_cost: UsdAmount.meta({ description: 'Dollars of the voiced answer (part of total_cost)' }),
  })
  .meta({ id: 'HistoryMessage' });
export type HistoryMessage = z.infer<typeof HistoryMessage>;

export const ADMIN_HISTORY_SORT_FIELDS = [
  'id',
  'user_id',
  'username',
  'model',
  'status',
  'input_tokens',
  'output_tokens',
  'total_cost',
  'cost',
  'created_at',
] as const;
export const AdminHistorySortField = z.enum(ADMIN_HISTORY_SORT_FIELDS);
export type AdminHistorySortField = z.infer<typeof AdminHistorySortField>;

const historyFilters = {
  userId: QueryId,
  username: queryText(),
  message: queryText(500).meta({ description: 'Text search over user_message and bot_response' }),
};

/** The query string of `GET /api/admin/history` as sent: `pageSize` and `limit` are both accepted. */
export const AdminHistoryQueryParams = listQuery({
  sortFields: ADMIN_HISTORY_SORT_FIELDS,
  defaultSort: { field: 'created_at', order: 'desc' },
}).extend({
  limit: optionalLimitParam(),
  pageSize: optionalLimitParam(),
  ...historyFilters,
});

/** `GET /api/admin/history` parsed: `limit` is `limit ?? pageSize ?? 10`. */
export const AdminHistoryQuery = AdminHistoryQueryParams.transform(({ pageSize, limit, ...rest }) => ({
  ...rest,
  limit: limit ?? pageSize ?? 10,
}));
export type AdminHistoryQuery = z.infer<typeof AdminHistoryQuery>;

export const AdminHistoryResponse = z
  .object({ history: z.array(HistoryMessage), total: z.int().min(0) })
  .meta({ id: 'AdminHistoryResponse' });
export type AdminHistoryResponse = z.infer<typeof AdminHistoryResponse>;

/**
 * The export's formats: `csv` RFC 4180 with the API's values (commas, decimal points, ISO dates in UTC);
 * `excel` what Russian Excel opens directly (`;`, decimal commas, Moscow time, Russian headers). Both UTF-8 with a BOM.
 */
export const HISTORY_EXPORT_FORMATS = ['csv', 'excel'] as const;
export const HistoryExportFormat = z.enum(HISTORY_EXPORT_FORMATS, { error: 'Формат выгрузки: csv или excel' });
export type HistoryExportFormat = z.infer<typeof HistoryExportFormat>;

/** `GET /api/admin/history/export`: the list's filters and sort, every matching row as CSV in the chosen format. */
export const HistoryExportQuery = AdminHistoryQueryParams.pick({ sortField: true, sortOrder: true })
  .extend(historyFilters)
  .extend({ format: HistoryExportFormat.default('csv') });
export type HistoryExportQuery = z.infer<typeof HistoryExportQuery>;

/** `GET /api/admin/history/prev/{id}` and `/next/{id}`: neighbours in the default order, optionally within one user. */
export const HistoryNeighbourQuery = z.object({ userId: QueryId });
export type HistoryNeighbourQuery = z.infer<typeof HistoryNeighbourQuery>;

export const HistoryIdParams = z.object({ id: BigIdParam });
export type HistoryIdParams = z.infer<typeof HistoryIdParams>;

/** Whole numbers arrive as strings in multipart bodies. */
function wholeNumberInput(message: string, max = Number.MAX_SAFE_INTEGER) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,15}$/, { error: message }),
      ],
      { error: message },
    )
    .transform((value) => Number(value))
    .pipe(z.int({ error: message }).min(0, { error: message }).max(max, { error: message }));
}

/** More tokens than this in one message is a bug of the caller, not a conversation. */
export const MAX_MESSAGE_TOKENS = 1_000_000_000;
/** Images one message may have generated. */
export const MAX_MESSAGE_IMAGES = 100;
/** Seconds of audio one message may carry (far above the bot's own limit). */
export const MAX_MESSAGE_AUDIO_SECONDS = 24 * 3600;
/** Characters one message may have had read aloud. */
export const MAX_MESSAGE_SPEECH_CHARACTERS = 1_000_000;

/**
 * `POST /api/bot/messages` fields (JSON, or multipart/form-data with an optional `image` file:
 * JPEG, PNG or WebP up to 10 MB). The user is named by `telegram_id` or `user_id`.
 */
export const BotMessageRequest = z
  .object({
    telegram_id: TelegramIdInput.optional(),
    user_id: wholeNumberInput('user_id должен быть целым положительным числом')
      .pipe(
        z
          .int()
          .positive({ error: 'user_id должен быть целым положительным числом' })
          .max(MAX_SERIAL_ID, { error: `user_id не может быть больше ${MAX_SERIAL_ID}` }),
      )
      .optional(),
    model: requiredText(100, 'Укажите модель'),
    user_message: z
      .string({ error: 'Ожидается строка' })
      .max(100_000, { error: 'Сообщение слишком длинное' })
      .default(''),
    bot_response: z
      .string({ error: 'Ожидается строка' })
      .max(200_000, { error: 'Ответ слишком длинный' })
      .nullish()
      .transform((value) => value ?? null),
    input_tokens: wholeNumberInput('input_tokens должен быть целым числом от 0 до 1 000 000 000', MAX_MESSAGE_TOKENS),
    output_tokens: wholeNumberInput('output_tokens должен быть целым числом от 0 до 1 000 000 000', MAX_MESSAGE_TOKENS),
    status: MessageStatus.default('success'),
    error_message: nullableText(5000),
    image_count: wholeNumberInput('image_count должен быть целым числом от 0 до 100', MAX_MESSAGE_IMAGES).default(0),
    door: ChatDoor.default('telegram').meta({ description: 'Where the user asked: the bot or the web chat' }),
    hold_id: z
      .uuid({ error: 'hold_id должен быть идентификатором резерва (uuid)' })
      .optional()
      .meta({ description: 'The billing hold placed before the call: the charge is capped at it and settles it' }),
    mode: nullableText(100).meta({ description: 'The name of the chat mode the user is in' }),
    transcription_model: nullableText(100).meta({ description: 'The model that transcribed the voice message' }),
    audio_seconds: wholeNumberInput(
      'audio_seconds должен быть целым числом от 0 до 86 400',
      MAX_MESSAGE_AUDIO_SECONDS,
    ).default(0),
    speech_model: nullableText(100).meta({ description: 'The model that read the answer aloud' }),
    speech_characters: wholeNumberInput(
      'speech_characters должен быть целым числом от 0 до 1 000 000',
      MAX_MESSAGE_SPEECH_CHARACTERS,
    ).default(0),
  })
  .refine((body) => body.telegram_id !== undefined || body.user_id !== undefined, {
    error: 'Укажите telegram_id или user_id',
    path: ['telegram_id'],
  })
  .refine((body) => body.audio_seconds === 0 || body.transcription_model, {
    error: 'Укажите transcription_model для audio_seconds',
    path: ['transcription_model'],
  })
  .refine((body) => body.speech_characters === 0 || body.speech_model, {
    error: 'Укажите speech_model для speech_characters',
    path: ['speech_model'],
  })
  .meta({ id: 'BotMessageRequest' });
export type BotMessageRequest = z.infer<typeof BotMessageRequest>;

export const BOT_MESSAGE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** `GET /api/media/{id}`: an attached image; the id is random and unguessable, so the path is public. */
export const MediaIdParams = z.object({
  id: z.string().regex(/^[a-f0-9]{32}$/, { error: 'Изображение не найдено' }),
});
export type MediaIdParams = z.infer<typeof MediaIdParams>;

// ---------------------------------------------------------------------------------------------
// System settings (key/value)

const fillAllFields = 'Заполните все поля';

export const SysValKey = z
  .string({ error: fillAllFields })
  .trim()
  .min(1, { error: fillAllFields, abort: true })
  .max(100, { error: 'Ключ должен быть не длиннее 100 символов', abort: true })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'Ключ может содержать только латинские буквы, цифры, _, . и -' });
export type SysValKey = z.infer<typeof SysValKey>;

const sysValValue = z
  .string({ error: fillAllFields })
  .trim()
  .min(1, { error: fillAllFields, abort: true })
  .max(10_000, { error: 'Значение должно быть не длиннее 10 000 символов' });

export const SysVal = z
  .object({ id: Id, key: z.string(), value: z.string(), created_at: IsoDateTime, updated_at: IsoDateTime })
  .meta({ id: 'SysVal' });
export type SysVal = z.infer<typeof SysVal>;

export const SysValCreateRequest = z.object({ key: SysValKey, value: sysValValue }).meta({ id: 'SysValCreateRequest' });
export type SysValCreateRequest = z.infer<typeof SysValCreateRequest>;

/** `PUT /api/admin/sys_vals/{key}`: the value only (the key is read-only). */
export const SysValUpdateRequest = z.object({ value: sysValValue }).meta({ id: 'SysValUpdateRequest' });
export type SysValUpdateRequest = z.infer<typeof SysValUpdateRequest>;

export const SysValKeyParams = z.object({ key: SysValKey });
export type SysValKeyParams = z.infer<typeof SysValKeyParams>;

export const ADMIN_SYS_VALS_SORT_FIELDS = ['id', 'key', 'created_at', 'updated_at'] as const;
export const AdminSysValsSortField = z.enum(ADMIN_SYS_VALS_SORT_FIELDS);
export type AdminSysValsSortField = z.infer<typeof AdminSysValsSortField>;

/** `GET /api/admin/sys_vals`: default sort key ascending (value is not sortable). */
export const AdminSysValsQuery = listQuery({
  sortFields: ADMIN_SYS_VALS_SORT_FIELDS,
  defaultSort: { field: 'key', order: 'asc' },
});
export type AdminSysValsQuery = z.infer<typeof AdminSysValsQuery>;

export const AdminSysValsResponse = z
  .object({ data: z.array(SysVal), pagination: Pagination })
  .meta({ id: 'AdminSysValsResponse' });
export type AdminSysValsResponse = z.infer<typeof AdminSysValsResponse>;

export const SysValResponse = z.object({ success: z.literal(true), data: SysVal }).meta({ id: 'SysValResponse' });
export type SysValResponse = z.infer<typeof SysValResponse>;

/**
 * The bot's settings, created on first start (never overwritten) beside the cost settings, and
 * read from `GET /api/bot/settings` by these keys.
 */
export const DEFAULT_BOT_SETTINGS = {
  /** The model a new chat talks to. */
  default_model: 'gpt-4o-mini',
  /** The model that reads photos. */
  vision_model: 'gpt-4o-mini',
  /** The model that draws pictures. */
  image_model: 'gpt-image-1',
  /** Messages one Telegram user may send per minute. */
  bot_messages_per_minute: '20',
  /** Below this many available credits the bot warns the user. */
  low_balance_threshold: '500',
  /** The longest answer a model call may produce (also what its hold is sized for). */
  max_output_tokens: '1024',
  /** Tokens of earlier turns sent along with a new message. */
  context_token_budget: '6000',
  /** The model that turns voice messages into text (priced per minute on its row). */
  transcription_model: 'whisper-1',
  /** The model that reads answers aloud (priced per 1 000 characters on its row). */
  speech_model: 'tts-1',
  /** The voice of the speech model. */
  speech_voice: 'alloy',
  /** Broadcast messages the bot sends a second, in all (Telegram allows about 30; the rest stays for answers). */
  broadcast_messages_per_second: '25',
} as const satisfies Record<string, string>;
export type BotSettingKey = keyof typeof DEFAULT_BOT_SETTINGS;

/**
 * The whole-number bot settings and the ranges the bot works within: a value outside is refused when
 * set (a 0 rate would silence the bot, a billion output tokens hold more than anyone has, −1 breaks the
 * context), so the bot never meets one.
 */
export const BOT_SETTING_RANGES = {
  bot_messages_per_minute: { min: 1, max: 600 },
  low_balance_threshold: { min: 0, max: 1_000_000 },
  max_output_tokens: { min: 16, max: 32_768 },
  context_token_budget: { min: 256, max: 200_000 },
  broadcast_messages_per_second: { min: 1, max: 25 },
} as const satisfies Partial<Record<BotSettingKey, { min: number; max: number }>>;
export type RangedBotSettingKey = keyof typeof BOT_SETTING_RANGES;

export const isRangedBotSettingKey = (key: string): key is RangedBotSettingKey =>
  Object.hasOwn(BOT_SETTING_RANGES, key);

/** The number of a ranged bot setting's value, or null when it is not a whole number within its range. */
export function parseRangedBotSetting(key: RangedBotSettingKey, value: string): number | null {
  if (!/^\d{1,9}$/.test(value)) return null;
  const number = Number(value);
  const { min, max } = BOT_SETTING_RANGES[key];
  return number >= min && number <= max ? number : null;
}

/**
 * The welcome grant: credits every new person gets once, when the account is confirmed, in billing's
 * ledger; how many people get it a day at most (UTC days; past it a new person gets none, so a flood
 * of new accounts cannot farm credits), and how many of them signed up from one address. Created on
 * first start beside the other settings; billing learns their values from `setting.changed`. 0 credits
 * turns the grant off.
 */
export const DEFAULT_WELCOME_SETTINGS = {
  welcome_credits: '2000',
  welcome_daily_limit: '1000',
  welcome_per_address_daily: '3',
} as const satisfies Record<string, string>;
export const WELCOME_CREDITS_KEY = 'welcome_credits';
export const WELCOME_DAILY_LIMIT_KEY = 'welcome_daily_limit';
export const WELCOME_PER_ADDRESS_DAILY_KEY = 'welcome_per_address_daily';
export const MAX_WELCOME_CREDITS = 1_000_000;

/** The credits of a `welcome_credits` value, or null when it is not a whole number from 0 to 1 000 000. */
export function parseWelcomeCredits(value: string): number | null {
  if (!/^\d{1,7}$/.test(value)) return null;
  const credits = Number(value);
  return credits <= MAX_WELCOME_CREDITS ? credits : null;
}

/**
 * `GET /api/welcome_offer` (public): the welcome grant a new person gets now, and what a typical
 * message (500 tokens in, 500 out) costs with the default model, for "roughly how many messages".
 */
export const WelcomeOfferResponse = z
  .object({
    welcome_credits: CreditsAmount.meta({ description: 'The setting welcome_credits now (0: no grant)' }),
    model: z.string().nullable().meta({ description: 'The default model (setting default_model); null if it is gone' }),
    input_tokens: z.int(),
    output_tokens: z.int(),
    message_credits: CreditsAmount.nullable().meta({ description: 'Such a message with that model, in credits' }),
  })
  .meta({
    id: 'WelcomeOfferResponse',
    example: { welcome_credits: 2000, model: 'gpt-4o-mini', input_tokens: 500, output_tokens: 500, message_credits: 8 },
  });
export type WelcomeOfferResponse = z.infer<typeof WelcomeOfferResponse>;

/** `GET /api/bot/settings`: every setting as a key → value map. */
export const BotSettingsResponse = z
  .record(z.string(), z.string())
  .meta({ id: 'BotSettingsResponse', example: { usd_rub_rate: '95.00', credit_markup: '2.0' } });
export type BotSettingsResponse = z.infer<typeof BotSettingsResponse>;
