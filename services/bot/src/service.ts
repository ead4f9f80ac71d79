import { SANDBOX_PATH } from '@gpt/contracts';
import { attemptLimiter, type ServiceDefinition, type ServiceDeps } from '@gpt/kit';
import { buildApp } from './app';
import { ALLOWED_UPDATES, botFeatures } from './bot';
import { serviceClients, type ServiceClients } from './clients/services';
import type { BotConfig } from './config';
import { migrations } from './data/migrations';
import type { BotDatabase } from './data/schema';
import type { BotDeps } from './deps';
import { catalogReader } from './domain/catalog';
import { answerJobs } from './domain/answers';
import { generations } from './domain/generations';
import { messageLimiter } from './domain/message-limiter';
import { documentReader } from './documents/reader';
import { openAIProvider } from './engine/openai-provider';
import type { ModelProvider } from './engine/provider';
import { sandboxProvider } from './engine/sandbox-provider';
import { botConsumers } from './messaging/consumers';
import type { SandboxBotApi } from '@gpt/telegram-sandbox';
import { sandboxDecision, telegramSandbox } from './sandbox/telegram-sandbox';
import { showInterrupted } from './telegram/answer-message';
import { createTelegram, type Telegram } from './telegram/telegram';

/** The real model API when one is configured; the local sandbox otherwise (never in production: config refuses it). */
function modelProvider(deps: ServiceDeps<BotConfig, BotDatabase>): ModelProvider {
  const { config, logger } = deps;
  if (!config.LLM_API_URL) {
    logger.warn('LLM_API_URL is not set: the sandbox provider answers with test answers');
    return sandboxProvider();
  }
  return openAIProvider({
    baseURL: config.LLM_API_URL,
    apiKey: config.LLM_API_KEY,
    timeoutMs: config.LLM_TIMEOUT_MS,
    maxRetries: config.LLM_MAX_RETRIES,
    retryBaseMs: config.LLM_RETRY_BASE_MS,
    logger,
  });
}

/** What the bot's hooks get: its deps with the Telegram connection itself, and the sandbox when the bot runs on it. */
export interface WiredBot extends BotDeps {
  telegram: Telegram;
  sandbox: SandboxBotApi | null;
}

/** The bot's parts (clients, provider, Telegram), made once per start and shared by the consumers, the jobs and the app. */
function wireBot(base: ServiceDeps<BotConfig, BotDatabase>, options: BotServiceOptions): WiredBot {
  const sandbox = telegramSandbox(base.config);
  const decision = sandboxDecision(base.config);
  if (decision.on)
    base.logger.warn(`Telegram sandbox on at ${base.config.SITE_URL}/telegram-sandbox: ${decision.reason}`);
  else if (!base.config.TELEGRAM_BOT_TOKEN) base.logger.info(`Telegram sandbox off: ${decision.reason}`);
  // On the sandbox the bot calls this service itself: until it listens (telegram.start gets its address), nowhere.
  const config = sandbox
    ? { ...base.config, TELEGRAM_BOT_TOKEN: sandbox.token, TELEGRAM_API_URL: `http://127.0.0.1${SANDBOX_PATH}` }
    : base.config;
  const services = options.services ?? serviceClients(config);
  const engine = {
    ...base,
    config,
    services,
    provider: options.provider ?? modelProvider(base),
    catalog: catalogReader(services, config.BOT_CATALOG_TTL_MS),
    limiter: messageLimiter(base.kv),
    documents: documentReader({
      maxChars: config.BOT_MAX_DOCUMENT_CHARS,
      maxUnpackedBytes: config.BOT_MAX_DOCUMENT_UNPACKED_BYTES,
      maxEntries: config.BOT_MAX_DOCUMENT_ENTRIES,
      maxPages: config.BOT_MAX_DOCUMENT_PAGES,
    }),
    generations: generations({
      ...base,
      services,
      tellInterrupted: async (chatId, messageId) => {
        const api = telegram.api();
        if (api) await showInterrupted(api, chatId, messageId);
      },
    }),
    answers: answerJobs(base, config.BOT_ANSWER_SAVE_INTERVAL_MS),
    promoLimiter: attemptLimiter(base.kv, { name: 'bot-promo', points: config.BOT_PROMO_ATTEMPTS, windowSec: 600 }),
    sandboxPage: sandbox ? `${base.config.SITE_URL}/telegram-sandbox` : null,
  };
  const telegram: Telegram = createTelegram(engine, config, base.logger, {
    features: botFeatures,
    allowedUpdates: ALLOWED_UPDATES,
  });
  return { ...engine, telegram, sandbox };
}

/** What a test may give the bot instead of what it makes: a model provider, or stand-ins for the other services. */
export interface BotServiceOptions {
  provider?: ModelProvider;
  services?: ServiceClients;
}

/** The Telegram bot service. */
export function createBotService(options: BotServiceOptions = {}): ServiceDefinition<BotConfig, BotDatabase, WiredBot> {
  return {
    name: 'bot',
    migrations,
    wire: (base) => wireBot(base, options),
    consumers: botConsumers,
    buildApp: (deps) => buildApp(deps, deps.telegram, deps.sandbox),
    onStart: async ({ telegram, sandbox }) => {
      if (sandbox) return;
      telegram.start();
      return () => telegram.stop();
    },
    // On the sandbox the bot polls this service itself: it starts once the service listens, and stops
    // before the server closes (which would otherwise wait for its long poll).
    onListening: ({ telegram, sandbox }, url) => {
      if (!sandbox) return;
      telegram.start(`${url}${SANDBOX_PATH}`);
      return async () => {
        await telegram.stop();
        await sandbox.close();
      };
    },
  };
}
