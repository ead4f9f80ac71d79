import { runMain, startService } from '@gpt/kit';
import { loadAuthConfig } from './config';
import { authService } from './service';

await runMain(async () => {
  const running = await startService(authService, loadAuthConfig());
  return { logger: running.deps.logger, close: running.close };
});
