import { runMain, startService } from '@gpt/kit';
import { loadContentConfig } from './config';
import { contentService } from './service';

await runMain(async () => {
  const running = await startService(contentService, loadContentConfig());
  return { logger: running.deps.logger, close: running.close };
});
