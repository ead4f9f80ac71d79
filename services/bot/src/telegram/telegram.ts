import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { autoRetry } from '@grammyjs/auto-retry';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { unauthorized, type Logger } from '@gpt/kit';
import { Bot, type Api } from 'grammy';
import type { Update } from 'grammy/types';
import type { RequestHandler } from 'express';
import type { BotConfig } from '../config';
import type { BotDeps, TelegramLink } from '../deps';
import { blockedChats } from './blocked';
import { ALLOWED_UPDATES, botFeatures } from './bot';
import { firstReplyFirst, priorityThrottler } from './throttle';
import { webhookQueue } from './webhook-queue';
import type { BotContext } from './context';
import { COMMANDS, texts } from './texts';

/** How long to wait before trying Telegram again when it could not be reached at start. */
const CONNECT_RETRY_MS = 15_000;
/** After the answers, the other updates being handled (a /start, a button) get this long. */
const LAST_UPDATES_MS = 5_000;
/** One long-polling process per bot token: it holds this lock in Redis and refreshes it. */
const POLLER_LOCK_TTL_SEC = 30;
/** A process waiting for the poller lock looks again this often. */
const POLLER_WAIT_MS = 3_000;

export interface Telegram extends TelegramLink {
  /** Telegram's webhook: the check of its secret header, before the update is read. */
  webhookSecret: RequestHandler;
  /** The webhook's update for the bot, kept before Telegram hears 200. */
  acceptUpdate(update: Update): Promise<void>;
  /** Connects; `apiUrl` is the Bot API's address when it is not TELEGRAM_API_URL (the embedded sandbox's, once the service listens). */
  start(apiUrl?: string): void;
  stop(): Promise<void>;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The bot on Telegram through grammY: retries on 429 (auto-retry), stays under Telegram's limits
 * with placeholders and final answers before streaming previews (priorityThrottler), handles the updates of one chat in order (sequentialize) and different chats at
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
      apiUrl: () => config.TELEGRAM_API_URL,
      webhookSecret: (_req, _res, next) => next(unauthorized('Бот не подключён к Telegram', 'telegram_off')),
      acceptUpdate: async () => undefined,
      start: () => undefined,
      stop: async () => undefined,
    };
  }

  let apiUrl = config.TELEGRAM_API_URL;
  const bot = new Bot<BotContext>(token, {
    client: {
      apiRoot: config.TELEGRAM_API_URL,
      // Read at each call: the embedded sandbox's address is given to start() once the service listens.
      buildUrl: (_root, botToken, method) => `${apiUrl}/bot${botToken}/${method}`,
    },
  });
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
  // Installed after auto-retry, so it wraps it: a chat's retried call still holds that chat's turn.
  bot.api.config.use(priorityThrottler());
  // Outermost (installed last): a blocked user's chat is refused before any queue or retry (./blocked.ts).
  const blocked = blockedChats(deps);
  bot.api.config.use(blocked.transformer);
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.use(firstReplyFirst);
  const telegramDeps = {
    ...deps,
    telegram: { api: () => bot.api, username: () => usernameOf(), apiUrl: () => apiUrl },
  };
  // A failing update is logged and apologised for, in polling and webhook mode alike; it never stops the bot.
  bot
    .errorBoundary(async ({ error, ctx }) => {
      logger.error({ err: error, update: ctx.update.update_id }, 'handling a Telegram update failed');
      if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, texts.serviceDown).catch(() => undefined);
    })
    .use(botFeatures(telegramDeps, blocked.unblock));

  const usernameOf = () => (bot.isInited() ? bot.botInfo.username : (config.TELEGRAM_BOT_USERNAME ?? null));
  let runner: RunnerHandle | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let stopSweeps: (() => void) | undefined;
  let stopReports: (() => void) | undefined;
  const owner = deps.generations.owner;
  const webhooks = webhookQueue({
    db: deps.db,
    kv: deps.kv,
    logger,
    owner,
    handle: (update: Update) => bot.handleUpdate(update),
  });
  const pollerKey = `bot:poller:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
  let pollerLock: NodeJS.Timeout | undefined;

  /**
   * Long polling by one process per token: the lock names its holder, whose heartbeat says it is alive;
   * a second process waits (saying why) and takes over when the holder stops or dies.
   */
  async function takePolling(): Promise<boolean> {
    if (!(await deps.kv.acquire(pollerKey, owner, POLLER_LOCK_TTL_SEC))) {
      const holder = await deps.kv.get(pollerKey);
      if (holder && holder !== owner && (await deps.generations.isAlive(holder))) return false;
      await deps.kv.set(pollerKey, owner, POLLER_LOCK_TTL_SEC);
    }
    pollerLock = setInterval(
      () => void deps.kv.set(pollerKey, owner, POLLER_LOCK_TTL_SEC).catch(() => undefined),
      (POLLER_LOCK_TTL_SEC * 1000) / 3,
    );
    return true;
  }

  async function connect(): Promise<void> {
    if (stopped) return;
    // Heartbeat first: it is what tells other processes this one is alive (and holds the poller lock).
    stopSweeps ??= await deps.generations.start();
    stopReports ??= blocked.start();
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
    if (!(await takePolling())) {
      logger.error(
        'another process is already long-polling Telegram with this bot token: this one waits and takes over when ' +
          'it stops. Run one bot in polling mode, or set TELEGRAM_WEBHOOK_URL for webhook mode with several replicas',
      );
      retryTimer = setTimeout(connectInBackground, POLLER_WAIT_MS);
      return;
    }
    await bot.api.deleteWebhook();
    if (stopped) return;
    runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES } } });
    logger.info({ username: bot.botInfo.username }, 'Telegram bot polling for updates');
  }

  function connectInBackground() {
    connect()
      .then(async () => {
        if (config.TELEGRAM_WEBHOOK_URL) await webhooks.forgetOld();
      })
      .catch((err: unknown) => {
        if (stopped) return;
        logger.error({ err }, 'Telegram not reachable; trying again');
        retryTimer = setTimeout(connectInBackground, CONNECT_RETRY_MS);
      });
  }

  return {
    api: (): Api => bot.api,
    username: usernameOf,
    apiUrl: () => apiUrl,
    webhookSecret: (req, _res, next) => {
      const secret = config.TELEGRAM_WEBHOOK_SECRET;
      const given = req.header('x-telegram-bot-api-secret-token') ?? '';
      next(
        secret && sameSecret(given, secret)
          ? undefined
          : unauthorized('Неверный секрет вебхука', 'invalid_webhook_secret'),
      );
    },
    // Kept before Telegram hears 200, so an update is never lost; handled after, so Telegram never waits for an answer.
    acceptUpdate: async (update) => {
      await webhooks.accept(update);
    },
    start(url) {
      apiUrl = url ?? config.TELEGRAM_API_URL;
      connectInBackground();
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(pollerLock);
      // No new updates: the runner stops fetching at once (the webhook's server is closed before this).
      if (runner?.isRunning()) await runner.stop();
      // Answers in progress get the grace time; those still running then end as interrupted.
      await deps.generations.drain(config.BOT_SHUTDOWN_GRACE_SEC * 1000);
      const deadline = Date.now() + LAST_UPDATES_MS;
      while ((runner?.size() ?? 0) + webhooks.size() > 0 && Date.now() < deadline) await sleep(50);
      stopSweeps?.();
      stopReports?.();
      await deps.kv.release(pollerKey, owner).catch(() => undefined);
    },
  };
}
