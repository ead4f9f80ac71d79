import { loadConfig, serviceConfigSchema, type Env } from '@gpt/kit';
import { z } from 'zod';

export const MetricsConfig = serviceConfigSchema('metrics', 8085, {
  /** The disk the dashboard reports: the volume holding this path (default: DATA_DIR). */
  METRICS_DISK_PATH: z.string().optional(),
});
export type MetricsConfig = z.infer<typeof MetricsConfig>;

export const loadMetricsConfig = (env?: Env): MetricsConfig => loadConfig(MetricsConfig, env);
