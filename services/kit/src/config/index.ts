import { z } from 'zod';

/** Thrown at start when the environment does not fit the schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Parses the environment once; empty strings count as unset so `FOO=` in a .env file means "use the default". */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
}

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789abcdef';
const DEV_BOT_API_KEY = 'dev-only-bot-key';

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const nodeEnv = z.enum(['development', 'production', 'test']).default('development');

/** Variables every service and the gateway share. */
export const commonEnv = {
  NODE_ENV: nodeEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_JWT_SECRET),
  BOT_API_KEY: z.string().min(8, 'must be at least 8 characters').default(DEV_BOT_API_KEY),
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
  AMQP_EXCHANGE: z.string().default('app.events'),
};

/** Refuses the development secrets when NODE_ENV=production; use as `.superRefine(refuseDevSecrets)`. */
export function refuseDevSecrets(
  config: { NODE_ENV: string; JWT_SECRET: string; BOT_API_KEY: string },
  ctx: z.RefinementCtx,
): void {
  if (config.NODE_ENV !== 'production') return;
  if (config.JWT_SECRET === DEV_JWT_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'the development default is refused in production' });
  }
  if (config.BOT_API_KEY === DEV_BOT_API_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['BOT_API_KEY'],
      message: 'the development default is refused in production',
    });
  }
}

/** Per-service database: `<SERVICE>_DATABASE_URL` wins, else the server of DATABASE_URL with database `gpt_<service>`. */
export function serviceDatabaseUrl(service: string, env: { DATABASE_URL?: string | undefined }, override?: string) {
  if (override) return override;
  if (!env.DATABASE_URL) return undefined;
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/gpt_${service.replace(/-/g, '_')}`;
  return url.toString();
}
