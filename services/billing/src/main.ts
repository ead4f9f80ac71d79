import { runMain, startService } from '@gpt/kit';
import { loadBillingConfig } from './config';
import { billingService } from './service';

await runMain(async () => {
  const running = await startService(billingService, loadBillingConfig());
  return { logger: running.deps.logger, close: running.close };
});
