import { z } from 'zod';
import { environmentProblems } from './guards';

export { isLocalHost } from './guards';

/** Thrown at start when the environment does not fit the schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/**
 * Parses the environment once; empty strings count as unset so `FOO=` in a .env file means "use the
 * default". Every problem is listed at once: the schema's and the guards' (`environmentProblems`).
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(cleaned);
  const problems = [
    ...(result.success
      ? []
      : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)),
    ...environmentProblems(cleaned),
  ];
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const nodeEnv = z.enum(['development', 'production', 'test']).default('development');

/** Variables every service and the gateway share. */
export const commonEnv = {
  NODE_ENV: nodeEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset: human-readable in a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  HOST: z.string().default('127.0.0.1'),
  /**
   * No default in the code: `npm start` generates both outside production and keeps them under
   * DATA_DIR (see deploy/start.mjs); production must set them.
   */
  JWT_SECRET: z.string({ error: 'is required' }).min(32, 'must be at least 32 characters'),
  BOT_API_KEY: z.string({ error: 'is required' }).min(8, 'must be at least 8 characters'),
  REDIS_URL: z.url().optional(),
  /** Prepended to every key, so several stacks (parallel test files) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().default(''),
};

/** Variables of a service that owns a database and talks on the bus. */
export const serviceEnv = {
  ...commonEnv,
  DATABASE_URL: z.url().optional(),
  AMQP_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  /** Connections each service process keeps to its PostgreSQL database at most. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  AMQP_EXCHANGE: z.string().default('app.events'),
  /**
   * Quorum queues (durable, replicated on a cluster) unless `classic`: the test suites use classic
   * ones, since a suite declares thousands of queues on one small broker; the bus's own tests and the
   * replicas test keep quorum.
   */
  AMQP_QUEUE_TYPE: z.enum(['quorum', 'classic']).default('quorum'),
};

/**
 * `SITE_URL`, the site's public origin: every absolute URL the product writes (canonical links,
 * robots.txt, the sitemap, link and payment return URLs) starts with it, never with a request's
 * Host header. Spread into a schema and finish the schema with `.transform(resolveSiteUrl(port))`.
 */
export const siteUrlEnv = {
  SITE_URL: z
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
};

/**
 * Fills SITE_URL: required in production, else `http://localhost:<gatewayPort>`. The launchers pass
 * the gateway's SITE_URL down to every service, so a service falls back only when started by hand.
 * Use as `.transform((config, ctx) => resolveSiteUrl(config, ctx, 8080))`.
 */
export function resolveSiteUrl<C extends { NODE_ENV: string; SITE_URL?: string | undefined }>(
  config: C,
  ctx: z.RefinementCtx,
  gatewayPort: number,
): C & { SITE_URL: string } {
  if (!config.SITE_URL && config.NODE_ENV === 'production') {
    ctx.addIssue({ code: 'custom', path: ['SITE_URL'], message: 'is required in production' });
  }
  return { ...config, SITE_URL: config.SITE_URL ?? `http://localhost:${gatewayPort}` };
}

/** Per-service database: `<SERVICE>_DATABASE_URL` wins, else the server of DATABASE_URL with database `gpt_<service>`. */
export function serviceDatabaseUrl(service: string, env: { DATABASE_URL?: string | undefined }, override?: string) {
  if (override) return override;
  if (!env.DATABASE_URL) return undefined;
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/gpt_${service.replace(/-/g, '_')}`;
  return url.toString();
}

/** LOG_LEVEL and LOG_FORMAT alone, for a process that logs before any service reads its configuration. */
export const loadLoggingConfig = (env: Env = process.env) =>
  loadConfig(z.object({ LOG_LEVEL: commonEnv.LOG_LEVEL, LOG_FORMAT: commonEnv.LOG_FORMAT }), env);
