import { SANDBOX_PATH } from '@gpt/contracts';
import { attemptLimiter, type ServiceDefinition, type ServiceDeps } from '@gpt/kit';
import { buildApp } from './app';
import { serviceClients } from './clients/services';
import type { BotConfig } from './config';
import { migrations } from './data/migrations';
import type { BotDatabase } from './data/schema';
import type { BotDeps } from './deps';
import { catalogReader } from './domain/catalog';
import { generations } from './domain/generations';
import { messageLimiter } from './domain/message-limiter';
import { documentReader } from './documents/reader';
import { openAIProvider } from './engine/openai-provider';
import type { ModelProvider } from './engine/provider';
import { sandboxProvider } from './engine/sandbox-provider';
import { botConsumers } from './messaging/consumers';
import type { SandboxBotApi } from './sandbox/bot-api';
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

/**
 * The Telegram bot service. Its parts (clients, provider, Telegram) are made once, when the
 * kit first hands over the connections, and shared by the consumers, the start and the app.
 */
export function createBotService(
  options: { provider?: ModelProvider } = {},
): ServiceDefinition<BotConfig, BotDatabase> {
  let wired: { deps: BotDeps; telegram: Telegram; sandbox: SandboxBotApi | null } | undefined;
  const wire = (base: ServiceDeps<BotConfig, BotDatabase>) => {
    if (wired) return wired;
    const sandbox = telegramSandbox(base.config);
    const decision = sandboxDecision(base.config);
    if (decision.on)
      base.logger.warn(`Telegram sandbox on at ${base.config.SITE_URL}/telegram-sandbox: ${decision.reason}`);
    else if (!base.config.TELEGRAM_BOT_TOKEN) base.logger.info(`Telegram sandbox off: ${decision.reason}`);
    // On the sandbox the bot calls this service itself: its address is filled in once it listens.
    const config = sandbox
      ? { ...base.config, TELEGRAM_BOT_TOKEN: sandbox.token, TELEGRAM_API_URL: `http://127.0.0.1${SANDBOX_PATH}` }
      : base.config;
    const services = serviceClients(config);
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
      promoLimiter: attemptLimiter(base.kv, { name: 'bot-promo', points: config.BOT_PROMO_ATTEMPTS, windowSec: 600 }),
    };
    const telegram: Telegram = createTelegram(engine, config, base.logger);
    wired = { deps: { ...engine, telegram }, telegram, sandbox };
    return wired;
  };

  return {
    name: 'bot',
    migrations,
    consumers: (deps) => botConsumers(wire(deps).deps),
    buildApp: (deps) => {
      const { deps: botDeps, telegram, sandbox } = wire(deps);
      return buildApp(botDeps, telegram, sandbox);
    },
    onStart: async (deps) => {
      const { telegram, sandbox } = wire(deps);
      if (sandbox) return;
      telegram.start();
      return () => telegram.stop();
    },
    // On the sandbox the bot polls this service itself: it starts once the service listens, and stops
    // before the server closes (which would otherwise wait for its long poll).
    onListening: (deps, url) => {
      const { deps: botDeps, telegram, sandbox } = wire(deps);
      if (!sandbox) return;
      botDeps.config.TELEGRAM_API_URL = `${url}${SANDBOX_PATH}`;
      telegram.start();
      return async () => {
        await telegram.stop();
        await sandbox.close();
      };
    },
  };
}
