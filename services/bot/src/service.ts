import type { ServiceDefinition, ServiceDeps } from '@gpt/kit';
import { buildApp } from './app';
import { serviceClients } from './clients/services';
import type { BotConfig } from './config';
import { migrations } from './data/migrations';
import type { BotDatabase } from './data/schema';
import type { BotDeps } from './deps';
import { catalogReader } from './domain/catalog';
import { messageLimiter } from './domain/message-limiter';
import { openAIProvider } from './engine/openai-provider';
import type { ModelProvider } from './engine/provider';
import { sandboxProvider } from './engine/sandbox-provider';
import { botConsumers } from './messaging/consumers';
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
  let wired: { deps: BotDeps; telegram: Telegram } | undefined;
  const wire = (base: ServiceDeps<BotConfig, BotDatabase>) => {
    if (wired) return wired;
    const api = serviceClients(base.config);
    const engine = {
      ...base,
      api,
      provider: options.provider ?? modelProvider(base),
      catalog: catalogReader(api, base.config.BOT_CATALOG_TTL_MS),
      limiter: messageLimiter(base.kv),
    };
    const telegram = createTelegram(engine, base.config, base.logger);
    wired = { deps: { ...engine, telegram }, telegram };
    return wired;
  };

  return {
    name: 'bot',
    migrations,
    consumers: (deps) => botConsumers(wire(deps).deps),
    buildApp: (deps) => {
      const { deps: botDeps, telegram } = wire(deps);
      return buildApp(botDeps, telegram);
    },
    onStart: async (deps) => {
      const { telegram } = wire(deps);
      telegram.start();
      return () => telegram.stop();
    },
  };
}
