import { setTimeout as sleep } from 'node:timers/promises';
import { autoRetry } from '@grammyjs/auto-retry';
import { sequentialize } from '@grammyjs/runner';
import { unauthorized, type Logger } from '@gpt/kit';
import { Bot, type Composer, type MiddlewareFn } from 'grammy';
import type { Update } from 'grammy/types';
import type { RequestHandler } from 'express';
import type { BotConfig } from '../config';
import type { BotDeps, TelegramLink } from '../deps';
import { blockedChats } from './blocked';
import { broadcaster } from './broadcaster';
import { telegramSignal, type BotContext, type PrivateContext, type UpdateType } from './context';
import { longPolling, type LongPolling } from './polling';
import { fasterLimits, firstReplyFirst, floodGate, priorityThrottler, TELEGRAM_LIMITS } from './throttle';
import { webhookMode, webhookSecret } from './webhook';
import { COMMANDS, texts } from './texts';

/** How long to wait before trying Telegram again when it could not be reached at start. */
const CONNECT_RETRY_MS = 15_000;
/** After the answers, the other updates being handled (a /start, a button) get this long. */
const LAST_UPDATES_MS = 5_000;
/** A process waiting for another one's polling to end looks again this often. */
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

/** What the bot does with updates, from the composition root (../bot.ts): its features and the update types they take. */
export interface BotHandlers {
  features(deps: BotDeps, unblock: MiddlewareFn<PrivateContext>): Composer<BotContext>;
  allowedUpdates: readonly UpdateType[];
}

/**
 * The bot on Telegram through grammY: retries on 429 (auto-retry), stays under Telegram's limits
 * with placeholders and final answers before streaming previews (priorityThrottler), handles the
 * updates of one chat in order (sequentialize) and different chats at once; long polling
 * (./polling.ts), or webhook mode when TELEGRAM_WEBHOOK_URL is set (./webhook.ts). Without a token
 * Telegram is off; the service and its engine still run.
 */
export function createTelegram(
  deps: Omit<BotDeps, 'telegram'>,
  config: BotConfig,
  logger: Logger,
  handlers: BotHandlers,
): Telegram {
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
  // Innermost: each try's 429, which auto-retry then waits out; broadcasts wait for it too.
  const flood = floodGate();
  bot.api.config.use(flood.transformer);
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
  // Installed after auto-retry, so it wraps it: a chat's retried call still holds that chat's turn.
  bot.api.config.use(priorityThrottler(fasterLimits(TELEGRAM_LIMITS, config.TELEGRAM_TEST_SPEEDUP), flood.until));
  // Outermost (installed last): a blocked user's chat is refused before any queue or retry (./blocked.ts).
  const blocked = blockedChats(deps);
  bot.api.config.use(blocked.transformer);
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.use(firstReplyFirst);
  const usernameOf = () => (bot.isInited() ? bot.botInfo.username : (config.TELEGRAM_BOT_USERNAME ?? null));
  const link: TelegramLink = { api: () => bot.api, username: usernameOf, apiUrl: () => apiUrl };
  // A failing update is logged and apologised for, in polling and webhook mode alike; it never stops the bot.
  bot
    .errorBoundary(async ({ error, ctx }) => {
      logger.error({ err: error, update: ctx.update.update_id }, 'handling a Telegram update failed');
      if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, texts.serviceDown).catch(() => undefined);
    })
    .use(handlers.features({ ...deps, telegram: link }, blocked.unblock));

  const webhook = webhookMode(deps, bot, config, logger);
  let polling: LongPolling | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  /** The connection under way (or the last one): stop() waits for it, so nothing it starts outlives the stop. */
  let connection: Promise<void> = Promise.resolve();
  let stopSweeps: (() => void) | undefined;
  let stopReports: (() => void) | undefined;
  let stopBroadcasts: (() => Promise<void>) | undefined;
  // Ends the calls of a connection under way when the bot stops: auto-retry would otherwise go on retrying an
  // unreachable Telegram (3 s, 6 s, 12 s… apart) and keep the stopped process alive.
  const connecting = new AbortController();

  async function connect(): Promise<void> {
    if (stopped) return;
    const signal = telegramSignal(connecting.signal);
    // Heartbeat first: it is what tells other processes this one is alive (and holds the poller lock).
    stopSweeps ??= await deps.generations.start();
    stopReports ??= blocked.start();
    stopBroadcasts ??= broadcaster(deps, bot.api, flood.until).start();
    await bot.init(signal);
    await bot.api.setMyCommands(COMMANDS, undefined, signal);
    if (config.TELEGRAM_WEBHOOK_URL) {
      await webhook.connect(config.TELEGRAM_WEBHOOK_URL, handlers.allowedUpdates, signal);
      logger.info({ username: bot.botInfo.username, url: config.TELEGRAM_WEBHOOK_URL }, 'Telegram bot on webhook');
      return;
    }
    polling ??= longPolling(deps, bot, token!, handlers.allowedUpdates);
    if (!(await polling.start(signal))) {
      logger.error(
        'another process is already long-polling Telegram with this bot token: this one waits and takes over when ' +
          'it stops. Run one bot in polling mode, or set TELEGRAM_WEBHOOK_URL for webhook mode with several replicas',
      );
      retryTimer = setTimeout(connectInBackground, POLLER_WAIT_MS);
      return;
    }
    logger.info({ username: bot.botInfo.username }, 'Telegram bot polling for updates');
  }

  function connectInBackground() {
    connection = connect().catch((err: unknown) => {
      if (stopped) return;
      logger.error({ err }, 'Telegram not reachable; trying again');
      retryTimer = setTimeout(connectInBackground, CONNECT_RETRY_MS);
    });
  }

  return {
    ...link,
    webhookSecret: webhookSecret(config),
    acceptUpdate: async (update) => {
      await webhook.accept(update);
    },
    start(url) {
      apiUrl = url ?? config.TELEGRAM_API_URL;
      connectInBackground();
    },
    async stop() {
      stopped = true;
      connecting.abort();
      // A connection under way ends first (its calls to Telegram aborted): what it started is stopped below.
      await connection;
      clearTimeout(retryTimer);
      // No new updates: polling stops fetching at once (the webhook's server is closed before this).
      await polling?.stop();
      // Broadcast messages at Telegram are settled; nothing more is claimed.
      await stopBroadcasts?.();
      // Answers in progress get the grace time; those still running then end as interrupted.
      await deps.generations.drain(config.BOT_SHUTDOWN_GRACE_SEC * 1000);
      const deadline = Date.now() + LAST_UPDATES_MS;
      while ((polling?.size() ?? 0) + webhook.size() > 0 && Date.now() < deadline) await sleep(50);
      stopSweeps?.();
      stopReports?.();
      await polling?.release();
    },
  };
}
