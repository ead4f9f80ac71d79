import { runMain, startService } from '@gpt/kit';
import { loadBotConfig } from './config';
import { createBotService } from './service';

await runMain(async () => {
  const running = await startService(createBotService(), loadBotConfig());
  return { logger: running.deps.logger, close: running.close };
});
