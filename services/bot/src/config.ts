import { loadConfig, resolveSiteUrl, serviceConfigSchema, siteUrlEnv, type Env } from '@gpt/kit';
import { z } from 'zod';

const url = (fallback: string) =>
  z
    .url()
    .default(fallback)
    .transform((value) => value.replace(/\/+$/, ''));
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const BotConfig = serviceConfigSchema('bot', 8086, {
  /** The bot's token from @BotFather; unset: Telegram is off and the rest of the service still runs. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/, 'must look like 123456:ABC-DEF…')
    .optional(),
  /** The Bot API base (tests and the embedded sandbox point it at a local server). */
  TELEGRAM_API_URL: url('https://api.telegram.org'),
  /**
   * Without a token outside production the service runs a sandbox Bot API of its own (in memory,
   * emptied on restart) and the bot talks to it, so the site's /telegram-sandbox page shows the
   * whole bot flow with no keys; `false` turns it off.
   */
  TELEGRAM_SANDBOX: z.stringbool().default(true),
  /** Set: webhook mode, Telegram posts updates to this URL (…/api/telegram/webhook); unset: long polling. */
  TELEGRAM_WEBHOOK_URL: z.url().optional(),
  /** The secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (webhook mode); 1–256 of A-Z a-z 0-9 _ -. */
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[\w-]{16,256}$/, 'must be 16–256 characters of A-Z, a-z, 0-9, _ and -')
    .optional(),
  /** The bot's username when getMe cannot tell it (no token, or Telegram unreachable at start). */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z]\w{3,31}$/, 'must be a Telegram username without @')
    .optional(),
  /** An OpenAI-compatible API (…/v1); unset outside production: the sandbox provider answers locally. */
  LLM_API_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
  /** One model call may take this long in all. */
  LLM_TIMEOUT_MS: positiveInt(120_000),
  /** Retries of a call that failed with 429 or 5xx before any output was sent. */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  LLM_RETRY_BASE_MS: positiveInt(500),
  /** The services the bot calls with its key (their /api/bot/* routes). */
  AUTH_URL: url('http://127.0.0.1:8081'),
  BILLING_URL: url('http://127.0.0.1:8083'),
  CHAT_HISTORY_URL: url('http://127.0.0.1:8084'),
  /** The site's public address, for the «Сайт» button. */
  ...siteUrlEnv,
  /** Documents larger than this are refused (Telegram lets bots download up to 20 MB). */
  BOT_MAX_DOCUMENT_BYTES: positiveInt(10 * 1024 * 1024),
  /** Characters of a document's text sent to the model; the rest is cut with a note. */
  BOT_MAX_DOCUMENT_CHARS: positiveInt(40_000),
  /** Longer voice messages and audio files are refused before anything is spent. */
  BOT_MAX_VOICE_SECONDS: positiveInt(300),
  /** Models and settings are read again after this long, so an admin's edit reaches the bot within it. */
  BOT_CATALOG_TTL_MS: z.coerce.number().int().min(0).default(15_000),
  /** The streamed answer is edited into the placeholder at most this often. */
  BOT_STREAM_EDIT_INTERVAL_MS: positiveInt(1000),
})
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && !config.LLM_API_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['LLM_API_URL'],
        message: 'a model API is required in production (the sandbox provider only pretends to answer)',
      });
    }
    if (config.TELEGRAM_WEBHOOK_URL && !config.TELEGRAM_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['TELEGRAM_WEBHOOK_SECRET'],
        message: 'webhook mode needs a secret, so nobody else can post updates',
      });
    }
  })
  .transform((config, ctx) => resolveSiteUrl(config, ctx, 8080));
export type BotConfig = z.infer<typeof BotConfig>;

export const loadBotConfig = (env?: Env): BotConfig => loadConfig(BotConfig, env);
