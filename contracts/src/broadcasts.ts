import { z } from 'zod';
import { Id, IsoDateTime, Pagination, SerialId, TelegramId, listQuery } from './common';
import { toPlainText } from './telegram-html';

/**
 * Broadcasts: an admin's message to the bot's users, or a segment of them, sent by the bot at
 * `broadcast_messages_per_second` (docs/bot.md, Broadcasts; docs/architecture.md, The bot).
 */

/** Telegram's limits: a message's text and a photo's caption, in characters as the reader sees them. */
export const TELEGRAM_TEXT_LIMIT = 4096;
export const TELEGRAM_CAPTION_LIMIT = 1024;
/** Characters kept for what the bot adds under every broadcast (how to turn broadcasts off). */
export const BROADCAST_FOOTER_ROOM = 120;

/** What a broadcast's button does: opens a link, or one of the bot's own actions. */
export const BROADCAST_BUTTON_KINDS = ['url', 'top_up', 'open_chat'] as const;
export type BroadcastButtonKind = (typeof BROADCAST_BUTTON_KINDS)[number];

const httpUrl = (field: string) =>
  z
    .string({ error: `${field}: ожидается ссылка` })
    .trim()
    .max(2048, { error: `${field}: ссылка длиннее 2048 символов` })
    .refine((value) => /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value) && URL.canParse(value), {
      error: `${field}: ожидается ссылка, начинающаяся с http:// или https://`,
    });

export const BroadcastButton = z
  .discriminatedUnion(
    'kind',
    [
      z.object({
        kind: z.literal('url'),
        text: z
          .string({ error: 'Надпись кнопки обязательна' })
          .trim()
          .min(1, { error: 'Надпись кнопки обязательна' })
          .max(64, { error: 'Надпись кнопки — не длиннее 64 символов' }),
        url: httpUrl('Ссылка кнопки'),
      }),
      z.object({ kind: z.literal('top_up') }),
      z.object({ kind: z.literal('open_chat') }),
    ],
    { error: 'Кнопка: ссылка, «Пополнить» или «Открыть чат»' },
  )
  .meta({
    id: 'BroadcastButton',
    description: 'A link, or the bot’s «Пополнить» (top_up) or «Открыть чат» (open_chat)',
  });
export type BroadcastButton = z.infer<typeof BroadcastButton>;

const days = (field: string) =>
  z
    .int({ error: `${field}: ожидается целое число дней` })
    .min(1, { error: `${field}: не меньше 1 дня` })
    .max(3650, { error: `${field}: не больше 3650 дней` })
    .nullable()
    .default(null);

/**
 * Who gets a broadcast: every bot user, narrowed by each field that is set (all of them at once). Users
 * who blocked the bot or turned broadcasts off are never among them.
 */
const AudienceFields = z.strictObject(
  {
    tariff_ids: z
      .array(SerialId, { error: 'Тарифы: ожидается список номеров' })
      .max(50, { error: 'Тарифов — не больше 50' })
      .nullable()
      .default(null)
      .meta({
        description: 'Users on one of these tariffs (billing’s ids); null: any',
      }),
    paid: z.enum(['ever', 'never'], { error: 'Оплата: ever или never' }).nullable().default(null).meta({
      description: 'ever: paid money at least once; never: never paid; null: either',
    }),
    active_within_days: days('Активны за последние').meta({
      description: 'Wrote to the bot within N days',
    }),
    inactive_for_days: days('Неактивны дольше').meta({
      description: 'Have not written to the bot for N days or more',
    }),
    balance_below: z
      .int({ error: 'Баланс ниже: ожидается целое число кредитов' })
      .min(1, { error: 'Баланс ниже: не меньше 1 кредита' })
      .max(1_000_000_000, { error: 'Баланс ниже: слишком большое число' })
      .nullable()
      .default(null)
      .meta({ description: 'Available credits (bought + included) below N' }),
    linked: z.boolean({ error: 'Привязка: true или false' }).nullable().default(null).meta({
      description: 'true: linked to a site account; false: Telegram only; null: either',
    }),
    utm_source: z
      .string({ error: 'UTM-метка: ожидается строка' })
      .trim()
      .max(64, { error: 'UTM-метка — не длиннее 64 символов' })
      .transform((value) => (value === '' ? null : value))
      .nullable()
      .default(null),
    tariff_ends_within_days: days('Тариф заканчивается в течение').meta({
      description: 'A paid tariff whose period ends within N days',
    }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Аудитория: неизвестное поле ${issue.keys.join(', ')}` : undefined,
  },
);
export const BroadcastAudience = AudienceFields.refine(
  (audience) =>
    audience.active_within_days === null ||
    audience.inactive_for_days === null ||
    audience.inactive_for_days < audience.active_within_days,
  {
    error: 'Активность: «неактивны дольше» должно быть меньше «активны за последние» — иначе никого не останется',
  },
).meta({ id: 'BroadcastAudience' });
export type BroadcastAudience = z.infer<typeof BroadcastAudience>;

/** The part of an audience auth answers (accounts, balances, tariffs): the rest (activity) the bot knows itself. */
export const BroadcastRecipientsRequest = AudienceFields.omit({
  active_within_days: true,
  inactive_for_days: true,
}).meta({ id: 'BroadcastRecipientsRequest' });
export type BroadcastRecipientsRequest = z.infer<typeof BroadcastRecipientsRequest>;

export const BroadcastRecipientsResponse = z.object({ telegram_ids: z.array(TelegramId) }).meta({
  id: 'BroadcastRecipientsResponse',
  description: 'Telegram users of the segment, without those who blocked the bot or turned broadcasts off',
});
export type BroadcastRecipientsResponse = z.infer<typeof BroadcastRecipientsResponse>;

/** The message itself: Markdown as the bot's answers are written (**bold**, *italic*, [link](https://…)). */
export const BroadcastContent = z
  .object({
    text: z
      .string({ error: 'Текст рассылки обязателен' })
      .trim()
      .min(1, { error: 'Текст рассылки обязателен' })
      .max(TELEGRAM_TEXT_LIMIT, {
        error: `Текст — не длиннее ${TELEGRAM_TEXT_LIMIT} символов`,
      }),
    photo_url: httpUrl('Фото')
      .nullable()
      .default(null)
      .transform((value) => (value === '' ? null : value)),
    button: BroadcastButton.nullable().default(null),
  })
  .superRefine((content, ctx) => {
    const limit = (content.photo_url ? TELEGRAM_CAPTION_LIMIT : TELEGRAM_TEXT_LIMIT) - BROADCAST_FOOTER_ROOM;
    const length = toPlainText(content.text).length;
    if (length > limit)
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: content.photo_url
          ? `С фото текст — не длиннее ${limit} символов (подпись к фото в Telegram — до ${TELEGRAM_CAPTION_LIMIT}), сейчас ${length}`
          : `Текст — не длиннее ${limit} символов, сейчас ${length}`,
      });
  })
  .meta({ id: 'BroadcastContent' });
export type BroadcastContent = z.infer<typeof BroadcastContent>;

export const CreateBroadcastRequest = z
  .object({
    content: BroadcastContent,
    audience: BroadcastAudience,
    send_at: IsoDateTime.nullable().default(null).meta({
      description: 'When to start (the admin picks it in Europe/Moscow); null: now',
    }),
  })
  .meta({ id: 'CreateBroadcastRequest' });
export type CreateBroadcastRequest = z.infer<typeof CreateBroadcastRequest>;

export const BroadcastCountRequest = z.object({ audience: BroadcastAudience }).meta({ id: 'BroadcastCountRequest' });
export type BroadcastCountRequest = z.infer<typeof BroadcastCountRequest>;

export const BroadcastCountResponse = z.object({ recipients: z.int().min(0) }).meta({
  id: 'BroadcastCountResponse',
  description: 'Recipients now, without blocked and opted-out users',
});
export type BroadcastCountResponse = z.infer<typeof BroadcastCountResponse>;

export const BroadcastPreviewResponse = z
  .object({
    html: z.string().meta({
      description: 'The text or caption as sent, in Telegram’s HTML (its subset only)',
    }),
    photo_url: z.string().nullable(),
    button: z.object({ text: z.string(), url: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'BroadcastPreviewResponse' });
export type BroadcastPreviewResponse = z.infer<typeof BroadcastPreviewResponse>;

export const BroadcastTestResponse = z.object({ telegram_id: TelegramId }).meta({
  id: 'BroadcastTestResponse',
  description: 'Sent to the admin’s own linked Telegram',
});
export type BroadcastTestResponse = z.infer<typeof BroadcastTestResponse>;

export const BROADCAST_STATUSES = ['scheduled', 'sending', 'paused', 'canceled', 'done'] as const;
export const BroadcastStatus = z.enum(BROADCAST_STATUSES);
export type BroadcastStatus = z.infer<typeof BroadcastStatus>;

export const Broadcast = z
  .object({
    id: Id,
    status: BroadcastStatus,
    content: BroadcastContent,
    audience: BroadcastAudience,
    send_at: IsoDateTime,
    created_by: z.object({ id: Id, name: z.string() }).meta({ description: 'The admin who sent it' }),
    total: z.int().min(0).nullable().meta({
      description: 'Recipients, fixed when sending starts; null before',
    }),
    sent: z.int().min(0),
    blocked: z.int().min(0).meta({
      description: 'Had blocked the bot (Telegram’s 403): marked, never retried',
    }),
    failed: z.int().min(0).meta({
      description: 'Other errors after three tries, or cut short by a crash',
    }),
    left: z.int().min(0),
    rate: z.number().min(0).meta({ description: 'Messages a second over the last 10 seconds' }),
    created_at: IsoDateTime,
    started_at: IsoDateTime.nullable(),
    finished_at: IsoDateTime.nullable(),
  })
  .meta({ id: 'Broadcast' });
export type Broadcast = z.infer<typeof Broadcast>;

export const BroadcastResponse = z.object({ data: Broadcast }).meta({ id: 'BroadcastResponse' });
export type BroadcastResponse = z.infer<typeof BroadcastResponse>;

export const AdminBroadcastsQuery = listQuery({
  sortFields: ['created_at'],
  defaultSort: { field: 'created_at', order: 'desc' },
}).meta({ id: 'AdminBroadcastsQuery' });
export type AdminBroadcastsQuery = z.infer<typeof AdminBroadcastsQuery>;

export const AdminBroadcastsResponse = z
  .object({ data: z.array(Broadcast), pagination: Pagination })
  .meta({ id: 'AdminBroadcastsResponse' });
export type AdminBroadcastsResponse = z.infer<typeof AdminBroadcastsResponse>;

/** Whether the user gets broadcasts («Новости и акции»): the bot's /settings and the site's account page. */
export const NewsSubscription = z
  .object({ news: z.boolean({ error: 'news: ожидается true или false' }) })
  .meta({ id: 'NewsSubscription' });
export type NewsSubscription = z.infer<typeof NewsSubscription>;
