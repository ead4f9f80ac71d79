import { runMain, startService } from '@gpt/kit';
import { loadBotConfig, shutdownBudgetMs } from './config';
import { createBotService } from './service';

await runMain(async () => {
  const config = loadBotConfig();
  const running = await startService(createBotService(), config);
  return { logger: running.deps.logger, close: running.close, forceExitMs: shutdownBudgetMs(config) };
});
