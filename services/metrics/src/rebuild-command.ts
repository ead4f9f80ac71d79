import { busMigrations, openDatabase, serviceDatabaseUrl, type Logger } from '@gpt/kit';
import type { MetricsConfig } from './config';
import { migrations } from './data/migrations';
import type { MetricsDatabase } from './data/schema';
import { rebuildProjections } from './domain/rebuild-projections';

/** `npm run metrics:rebuild`: opens the metrics database as the service does and recomputes its projections from the event log. */
export async function rebuildCommand(config: MetricsConfig, logger: Logger): Promise<{ events: number }> {
  const database = await openDatabase<MetricsDatabase>({
    service: 'metrics',
    url: serviceDatabaseUrl('metrics', config, config.SERVICE_DATABASE_URL),
    dataDir: config.DATA_DIR,
    migrations: { ...busMigrations, ...migrations },
    logger,
  });
  try {
    const result = await rebuildProjections(database.db);
    logger.info(result, `metrics projections rebuilt from ${result.events} logged events`);
    return result;
  } finally {
    await database.close();
  }
}
