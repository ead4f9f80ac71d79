// The whole product in one process: the five services on an in-process bus and the gateway in front.
// PostgreSQL and Redis are used when DATABASE_URL / REDIS_URL are set; otherwise PGlite under DATA_DIR
// and an in-memory store. `npm start` runs this when AMQP_URL is not set.
import { loadBotConfig, shutdownBudgetMs } from '@gpt/bot';
import { createLogger, runMain } from '@gpt/kit';
import { startStack } from './stack';

await runMain(async () => {
  const logger = createLogger({ name: 'embedded', level: process.env.LOG_LEVEL ?? 'info' });
  const stack = await startStack({ ...process.env, AMQP_URL: undefined }, logger);
  const site = stack.gateway.url.replace('127.0.0.1', 'localhost');
  logger.info({ url: site }, 'embedded product started');
  console.log(`\nThe site is at ${site} (API reference: ${site}/api/docs)\n`);
  // The bot's answers in progress get their grace time at a stop (Ctrl+C, SIGTERM) before the rest closes.
  return { logger, close: stack.close, forceExitMs: shutdownBudgetMs(loadBotConfig(process.env)) };
});
