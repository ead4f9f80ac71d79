import { runMain, startService } from '@gpt/kit';
import { loadChatHistoryConfig } from './config';
import { chatHistoryService } from './service';

await runMain(async () => {
  const running = await startService(chatHistoryService, loadChatHistoryConfig());
  return { logger: running.deps.logger, close: running.close };
});
