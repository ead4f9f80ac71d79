import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventProducers, type EventInput, type EventType } from '@gpt/contracts';
import {
  serviceMigrations,
  createInProcessBroker,
  createLogger,
  openDatabase,
  startService,
  type Env,
  type RunningService,
} from '@gpt/kit';
import { migrationsVersion, pgliteDataDir, TEST_SECRETS } from '@gpt/kit/testing';
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
 * A DATA_DIR whose PGlite cluster holds the bot's schema, migrated: made once per machine and version of
 * the migrations (PGlite's initdb costs seconds), copied for each harness. Two workers making it at once
 * both build; the first rename wins.
 */
async function migratedDataDir(): Promise<string> {
  const all = serviceMigrations({ migrations });
  const template = path.join(tmpdir(), `bot-harness-${migrationsVersion(all)}`);
  if (existsSync(template)) return template;
  const building = await pgliteDataDir('bot-harness-build');
  const logger = createLogger({ name: 'bot-harness', level: 'silent' });
  const database = await openDatabase({ service: 'bot', dataDir: building, migrations: all, logger });
  await database.close();
  await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
  return template;
}

/**
 * The bot service alone, in this process: its own PGlite database, an in-process bus, in-memory
 * limits, the Telegram sandbox and a fake model API on localhost, and stand-ins for the services it
 * calls. For tests of one bot feature; journeys through the whole product use ./bot-stack.ts.
 */
export async function startBotHarness(env: Env = {}): Promise<BotHarness> {
  const [{ telegram, openai, env: outside }, dataDir, template] = await Promise.all([
    startOutsideParties(),
    mkdtemp(path.join(tmpdir(), 'bot-harness-')),
    migratedDataDir(),
  ]);
  await cp(template, dataDir, { recursive: true });
  const services = standInServices();
  const config = loadBotConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    DATA_DIR: dataDir,
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
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
