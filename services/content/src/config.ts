import { loadConfig, serviceConfigSchema, type Env } from '@gpt/kit';
import { z } from 'zod';

export const ContentConfig = serviceConfigSchema('content', 8082, {
  /** A visitor reading the same article again within this many seconds is not counted again. */
  VIEW_WINDOW_SEC: z.coerce.number().int().min(1).default(1800),
  /** New views wait in memory at most this long before they are added to the stored counts. */
  VIEW_FLUSH_MS: z.coerce.number().int().min(10).default(1000),
});
export type ContentConfig = z.infer<typeof ContentConfig>;

export const loadContentConfig = (env?: Env): ContentConfig => loadConfig(ContentConfig, env);
