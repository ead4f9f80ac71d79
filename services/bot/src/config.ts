import { loadConfig, resolveSiteUrl, serviceConfigSchema, siteUrlEnv, type Env } from '@gpt/kit';
import { z } from 'zod';
import { DOCUMENT_LIMITS } from './documents/extract';

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
   * Without a token outside production the service may run a sandbox Bot API of its own (in memory,
   * emptied on restart) and the bot talks to it, so the site's /telegram-sandbox page shows the whole
   * bot flow with no keys. Unset: on only while the site is served on this machine alone (the gateway
   * bound to loopback); `true` also when bound wider (a LAN demo); `false` never. Never with a public
   * SITE_URL: anyone reaching the sandbox can play any bot user it creates.
   */
  TELEGRAM_SANDBOX: z.stringbool().optional(),
  /** The address the site is served on, when a launcher runs the gateway elsewhere than this service (embedded). */
  GATEWAY_HOST: z.string().optional(),
  /** Sandbox users kept at once; a new one past it forgets the least recently seen (their chat and files). */
  TELEGRAM_SANDBOX_MAX_USERS: positiveInt(50),
  /** New sandbox users per minute, over the whole sandbox. */
  TELEGRAM_SANDBOX_NEW_USERS_PER_MINUTE: positiveInt(10),
  /** Messages, uploads and button presses per sandbox user per minute. */
  TELEGRAM_SANDBOX_ACTIONS_PER_MINUTE: positiveInt(30),
  /** Chat reads per sandbox user per minute (the page long-polls: one read per change). */
  TELEGRAM_SANDBOX_READS_PER_MINUTE: positiveInt(240),
  /** Bytes of files (photos, documents) the sandbox keeps in memory; the oldest go first. */
  TELEGRAM_SANDBOX_MAX_FILE_BYTES: positiveInt(64 * 1024 * 1024),
  /** Messages kept per sandbox chat; older ones are forgotten. */
  TELEGRAM_SANDBOX_MAX_CHAT_MESSAGES: positiveInt(200),
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
  /** A .docx whose zip lists more unpacked bytes, or more entries, than these is refused before unpacking. */
  BOT_MAX_DOCUMENT_UNPACKED_BYTES: positiveInt(DOCUMENT_LIMITS.maxUnpackedBytes),
  BOT_MAX_DOCUMENT_ENTRIES: positiveInt(DOCUMENT_LIMITS.maxEntries),
  /** PDF pages read at most (one at a time, stopping once BOT_MAX_DOCUMENT_CHARS are read). */
  BOT_MAX_DOCUMENT_PAGES: positiveInt(DOCUMENT_LIMITS.maxPages),
  /** Longer voice messages and audio files are refused before anything is spent. */
  BOT_MAX_VOICE_SECONDS: positiveInt(300),
  /** Models and settings are read again after this long, so an admin's edit reaches the bot within it. */
  BOT_CATALOG_TTL_MS: z.coerce.number().int().min(0).default(15_000),
  /** A running answer's text so far is saved for other replicas and reloaded pages at most this often. */
  BOT_ANSWER_SAVE_INTERVAL_MS: positiveInt(1000),
  /** The streamed answer is edited into the placeholder at most this often. */
  BOT_STREAM_EDIT_INTERVAL_MS: positiveInt(1000),
  /** /promo attempts one Telegram user may make per 10 minutes (each wrong one a guess). */
  BOT_PROMO_ATTEMPTS: positiveInt(10),
  /** How often marks of users who blocked the bot that auth could not take (it was down) are sent again. */
  BOT_BLOCKED_REPORT_INTERVAL_SEC: positiveInt(30),
  /** A broadcast message that failed (not a block) is tried again after this long, twice as long the second time. */
  BOT_BROADCAST_RETRY_SEC: positiveInt(60),
  /**
   * Tests only: Telegram's pace (messages a second, the gap in a chat) this many times as fast, against a
   * sandbox whose flood limits are sped up alike; production refuses anything but 1.
   */
  TELEGRAM_TEST_SPEEDUP: z.coerce.number().int().min(1).max(100).default(1),
  /** At a stop (SIGTERM), answers in progress get this long to finish; the rest end as interrupted. */
  BOT_SHUTDOWN_GRACE_SEC: z.coerce.number().int().min(0).max(300).default(20),
})
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && !config.LLM_API_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['LLM_API_URL'],
        message: 'a model API is required in production (the sandbox provider only pretends to answer)',
      });
    }
    if (config.NODE_ENV === 'production' && config.TELEGRAM_TEST_SPEEDUP !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['TELEGRAM_TEST_SPEEDUP'],
        message: "is for tests only: Telegram's own limits would refuse a faster pace",
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

/** How long a stopping bot may take in all: the answers' grace time and then closing the rest. */
export const shutdownBudgetMs = (config: Pick<BotConfig, 'BOT_SHUTDOWN_GRACE_SEC'>) =>
  (config.BOT_SHUTDOWN_GRACE_SEC + 10) * 1000;
