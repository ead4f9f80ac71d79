import { afterAll, beforeAll } from '@jest/globals';
import {
  createTestDatabase,
  deleteTestBroker,
  dropTestDatabase,
  freePort,
  TEST_SECRETS,
  testInfra,
  uniqueName,
} from '@gpt/kit/testing';
import { startFakeTelegram, type FakeTelegram } from '@gpt/telegram-sandbox/testing';
import { ServiceProcess } from '../../../../deploy/test/faults/service-process';
import { startBotStack, type BotStack } from './bot-stack';

export interface BotProcesses {
  /** The whole product the bot processes call (its own in-process bot keeps the product's events). */
  product: BotStack;
  /** The Telegram the bot processes poll. */
  telegram: FakeTelegram;
  /** A bot as production runs it: its own process, database, exchange and Redis prefix, shared by all it starts. */
  startBot(env?: Record<string, string>): Promise<ServiceProcess>;
}

/**
 * The hooks of a test file that runs the bot as its own process on the whole product: started once
 * before the tests, every process it started removed after them. Read the fields inside tests.
 */
export function botProcessesOnProduct(name: string): BotProcesses {
  const exchange = uniqueName(`${name}.events`);
  const redisPrefix = `${uniqueName(name)}:`;
  const started: ServiceProcess[] = [];
  let database: string;
  const upstream = (service: string) => suite.product.stack.services.find((running) => running.name === service)!.url;
  const suite: BotProcesses = {
    product: undefined as unknown as BotStack,
    telegram: undefined as unknown as FakeTelegram,
    async startBot(env = {}) {
      const bot = await ServiceProcess.start('bot', {
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        BOT_DATABASE_URL: database,
        // An exchange of its own: the product's in-process bot keeps the product's events.
        AMQP_URL: testInfra.amqpUrl,
        AMQP_EXCHANGE: exchange,
        AMQP_QUEUE_TYPE: 'classic',
        REDIS_URL: testInfra.redisUrl,
        REDIS_KEY_PREFIX: redisPrefix,
        ...TEST_SECRETS,
        AUTH_URL: upstream('auth'),
        BILLING_URL: upstream('billing'),
        CHAT_HISTORY_URL: upstream('chat-history'),
        TELEGRAM_BOT_TOKEN: suite.telegram.token,
        TELEGRAM_API_URL: suite.telegram.apiUrl,
        LLM_API_URL: suite.product.openai.baseURL,
        LLM_API_KEY: 'sk-test',
        BOT_CATALOG_TTL_MS: '0',
        ...env,
      });
      started.push(bot);
      return bot;
    },
  };
  beforeAll(async () => {
    suite.product = await startBotStack();
    suite.telegram = await startFakeTelegram();
    database = await createTestDatabase(name);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(started.map((process) => process.remove()));
    await suite.telegram?.close();
    await suite.product?.close();
    await dropTestDatabase(database);
    await deleteTestBroker(exchange);
  });
  return suite;
}
