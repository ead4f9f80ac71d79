import { timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { autoRetry } from '@grammyjs/auto-retry';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import { unauthorized, type Logger } from '@gpt/kit';
import { Bot, webhookCallback, type Api } from 'grammy';
import type { RequestHandler } from 'express';
import type { BotConfig } from '../config';
import type { BotDeps, TelegramLink } from '../deps';
import { botFeatures } from './bot';
import type { BotContext } from './context';
import { COMMANDS, texts } from './texts';

const ALLOWED_UPDATES = ['message', 'callback_query'] as const;
/** How long to wait before trying Telegram again when it could not be reached at start. */
const CONNECT_RETRY_MS = 15_000;
/** A webhook update is acknowledged after this long even if its handler still runs (Telegram retries slow ones). */
const WEBHOOK_ACK_MS = 2_000;
/** At shutdown, updates being handled get this long to finish before the connections they use close. */
const STOP_GRACE_MS = 10_000;

export interface Telegram extends TelegramLink {
  /** POST /api/telegram/webhook: checks Telegram's secret header, then hands the update to the bot. */
  webhook: RequestHandler;
  start(): void;
  stop(): Promise<void>;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The bot on Telegram through grammY: retries on 429 (auto-retry), stays under Telegram's limits
 * (throttler), handles the updates of one chat in order (sequentialize) and different chats at
 * once (the runner's concurrent long polling). Webhook mode when TELEGRAM_WEBHOOK_URL is set.
 * Without a token Telegram is off; the service and its engine still run.
 */
export function createTelegram(deps: Omit<BotDeps, 'telegram'>, config: BotConfig, logger: Logger): Telegram {
  const token = config.TELEGRAM_BOT_TOKEN;
  if (!token) {
    logger.info('Telegram is off: TELEGRAM_BOT_TOKEN is not set (the bot service runs without it)');
    return {
      api: () => null,
      username: () => config.TELEGRAM_BOT_USERNAME ?? null,
      webhook: (_req, _res, next) => next(unauthorized('Бот не подключён к Telegram', 'telegram_off')),
      start: () => undefined,
      stop: async () => undefined,
    };
  }

  const bot = new Bot<BotContext>(token, {
    client: {
      apiRoot: config.TELEGRAM_API_URL,
      // Read at each call: the embedded sandbox's address is filled in once the service listens.
      buildUrl: (_root, botToken, method) => `${config.TELEGRAM_API_URL}/bot${botToken}/${method}`,
    },
  });
  bot.api.config.use(apiThrottler());
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30 }));
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  const telegramDeps = { ...deps, telegram: { api: () => bot.api, username: () => usernameOf() } };
  // A failing update is logged and apologised for, in polling and webhook mode alike; it never stops the bot.
  bot
    .errorBoundary(async ({ error, ctx }) => {
      logger.error({ err: error, update: ctx.update.update_id }, 'handling a Telegram update failed');
      if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, texts.serviceDown).catch(() => undefined);
    })
    .use(botFeatures(telegramDeps));

  const usernameOf = () => (bot.isInited() ? bot.botInfo.username : (config.TELEGRAM_BOT_USERNAME ?? null));
  let runner: RunnerHandle | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function connect(): Promise<void> {
    await bot.init();
    await bot.api.setMyCommands(COMMANDS);
    if (config.TELEGRAM_WEBHOOK_URL) {
      await bot.api.setWebhook(config.TELEGRAM_WEBHOOK_URL, {
        secret_token: config.TELEGRAM_WEBHOOK_SECRET,
        allowed_updates: ALLOWED_UPDATES,
      });
      logger.info({ username: bot.botInfo.username, url: config.TELEGRAM_WEBHOOK_URL }, 'Telegram bot on webhook');
      return;
    }
    await bot.api.deleteWebhook();
    if (stopped) return;
    runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES } } });
    logger.info({ username: bot.botInfo.username }, 'Telegram bot polling for updates');
  }

  function connectInBackground() {
    connect().catch((err: unknown) => {
      if (stopped) return;
      logger.error({ err }, 'Telegram not reachable; trying again');
      retryTimer = setTimeout(connectInBackground, CONNECT_RETRY_MS);
    });
  }

  const handleUpdate = webhookCallback(bot, 'express', {
    onTimeout: 'return',
    timeoutMilliseconds: WEBHOOK_ACK_MS,
  });

  return {
    api: (): Api => bot.api,
    username: usernameOf,
    webhook: async (req, res, next) => {
      const secret = config.TELEGRAM_WEBHOOK_SECRET;
      const given = req.header('x-telegram-bot-api-secret-token') ?? '';
      if (!secret || !sameSecret(given, secret))
        return next(unauthorized('Неверный секрет вебхука', 'invalid_webhook_secret'));
      try {
        await handleUpdate(req, res);
      } catch (err) {
        next(err);
      }
    },
    start: connectInBackground,
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      if (runner?.isRunning()) await runner.stop();
      // The runner stops fetching at once; the updates it is handling still answer their chats.
      const deadline = Date.now() + STOP_GRACE_MS;
      while (runner && runner.size() > 0 && Date.now() < deadline) await sleep(50);
    },
  };
}
