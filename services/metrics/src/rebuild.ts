import { ConfigError, createLogger } from '@gpt/kit';
import { loadMetricsConfig } from './config';
import { rebuildCommand } from './rebuild-command';

try {
  const config = loadMetricsConfig();
  await rebuildCommand(
    config,
    createLogger({ name: 'metrics-rebuild', level: config.LOG_LEVEL, format: config.LOG_FORMAT }),
  );
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
