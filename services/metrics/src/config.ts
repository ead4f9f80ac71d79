import { loadConfig, serviceConfigSchema, type Env } from '@gpt/kit';
import { z } from 'zod';

export const MetricsConfig = serviceConfigSchema('metrics', 8085, {
  /** The disk the dashboard reports: the volume holding this path (default: DATA_DIR). */
  METRICS_DISK_PATH: z.string().optional(),
  /** The services whose audit logs «Журнал действий» merges (their `/internal/audit`). */
  AUTH_URL: z.url().default('http://127.0.0.1:8081'),
  BILLING_URL: z.url().default('http://127.0.0.1:8083'),
  CHAT_HISTORY_URL: z.url().default('http://127.0.0.1:8084'),
  AUDIT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
});
export type MetricsConfig = z.infer<typeof MetricsConfig>;

export const loadMetricsConfig = (env?: Env): MetricsConfig => loadConfig(MetricsConfig, env);
