import { runMain, startService } from '@gpt/kit';
import { loadMetricsConfig } from './config';
import { metricsService } from './service';

await runMain(async () => {
  const running = await startService(metricsService, loadMetricsConfig());
  return { logger: running.deps.logger, close: running.close };
});
