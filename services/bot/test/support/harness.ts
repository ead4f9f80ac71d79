import { randomUUID } from 'node:crypto';
import { eventProducers, type EventInput, type EventType } from '@gpt/contracts';
import { serviceMigrations, createInProcessBroker, startService, type Env, type RunningService } from '@gpt/kit';
import { createTestDatabase, dropTestDatabase, TEST_SECRETS } from '@gpt/kit/testing';
import type { FakeTelegram } from '@gpt/telegram-sandbox/testing';
import { loadBotConfig, type BotConfig } from '../../src/config';
import { migrations } from '../../src/data/migrations';
import type { BotDatabase } from '../../src/data/schema';
import { createBotService, type WiredBot } from '../../src/service';
import type { FakeOpenAI } from './fake-openai';
import { startOutsideParties } from './outside-parties';
import { standInServices, type StandInServices } from './stand-in-services';

export interface BotHarness {
  /** The Telegram sandbox with every rule of Telegram's on, as the bot's Telegram. */
  telegram: FakeTelegram;
  openai: FakeOpenAI;
  /** Auth, billing and chat-history as the bot sees them, in memory. */
  services: StandInServices;
  bot: RunningService<BotConfig, BotDatabase, WiredBot>;
  /** Stops the bot as a deploy does (SIGTERM) and starts it again on the same database, Telegram and services. */
  restart(): Promise<void>;
  /** Delivers another service's event to the bot's consumers as the broker would; resolves once it is handled. */
  deliver<T extends EventType>(type: T, data: EventInput<T>): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bot service alone, in this process: its own database (a copy of a migrated template from the
 * tests' pool), an in-process bus, in-memory limits, the Telegram sandbox and a fake model API on
 * localhost, and stand-ins for the services it calls. For tests of one bot feature; journeys through
 * the whole product use ./bot-stack.ts.
 */
export async function startBotHarness(env: Env = {}): Promise<BotHarness> {
  const [{ telegram, openai, env: outside }, databaseUrl] = await Promise.all([
    startOutsideParties(),
    createTestDatabase('bot', serviceMigrations({ migrations })),
  ]);
  const services = standInServices();
  const config = loadBotConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    BOT_DATABASE_URL: databaseUrl,
    ...outside,
    ...TEST_SECRETS,
    ...env,
  });
  const broker = createInProcessBroker();
  let bot = await startService(createBotService({ services }), config, { broker });
  return {
    telegram,
    openai,
    services,
    get bot() {
      return bot;
    },
    async restart() {
      await bot.close();
      bot = await startService(createBotService({ services }), config, { broker });
    },
    async deliver(type, data) {
      const producer = eventProducers[type];
      const id = randomUUID();
      const handled = bot.deps.bus.waitFor('acked', (event) => event.id === id, 10_000);
      broker.publish(type, JSON.stringify({ id, type, occurredAt: new Date().toISOString(), producer, data }));
      await handled;
    },
    async close() {
      await bot.close();
      await Promise.all([telegram.close(), openai.close()]);
      await dropTestDatabase(databaseUrl);
    },
  };
}
