// The whole product in one process: the six services on an in-process bus and the gateway in front.
// PostgreSQL and Redis are used when DATABASE_URL / REDIS_URL are set; otherwise PGlite under DATA_DIR
// and an in-memory store. `npm start` runs this when AMQP_URL is not set.
import path from 'node:path';
import { loadBotConfig, shutdownBudgetMs } from '@gpt/bot';
import { createLogger, loadLoggingConfig, runMain } from '@gpt/kit';
import { startStack } from './stack';

await runMain(async () => {
  const logging = loadLoggingConfig();
  const logger = createLogger({ name: 'embedded', level: logging.LOG_LEVEL, format: logging.LOG_FORMAT });
  const stack = await startStack({ ...process.env, AMQP_URL: undefined }, logger);
  const kept = process.env.DATABASE_URL
    ? 'in PostgreSQL (the gpt_* databases of DATABASE_URL)'
    : `in ${path.resolve(process.env.DATA_DIR || './data', 'pglite')}`;
  return {
    logger,
    // The bot's answers in progress get their grace time at a stop (Ctrl+C, SIGTERM) before the rest closes.
    forceExitMs: shutdownBudgetMs(loadBotConfig(process.env)),
    async close() {
      await stack.close();
      const stopped = ['gateway', ...stack.services.map((service) => service.name)].join(', ');
      logger.info(
        `Stopped: ${stopped}. Data is kept ${kept}; the next npm start continues with it ` +
          '(the Telegram sandbox keeps its chats in memory only).',
      );
    },
  };
});
