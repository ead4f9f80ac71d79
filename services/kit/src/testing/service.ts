import type { Env } from '../config';
import {
  serviceMigrations,
  startService,
  type RunningService,
  type ServiceConfig,
  type ServiceDefinition,
  type ServiceDeps,
} from '../service';
import { createTestDatabase, dropTestDatabase } from './databases';
import { deleteTestBroker, testInfra, uniqueName } from './infra';

/** The secrets test processes run with (the code has no default secrets); a test may pass its own. */
export const TEST_SECRETS = {
  JWT_SECRET: 'test-jwt-secret-0123456789abcdef-0123456789abcdef',
  BOT_API_KEY: 'test-bot-api-key-0123456789',
};

export interface TestService<
  C extends ServiceConfig,
  DB,
  D extends ServiceDeps<C, DB> = ServiceDeps<C, DB>,
> extends RunningService<C, DB, D> {
  /** Stops the service and drops the database it created. */
  stop(): Promise<void>;
}

/**
 * Starts a service as production does, on real PostgreSQL (a fresh database), RabbitMQ (an
 * exchange of its own) and Redis, listening on a free port.
 */
export async function startTestService<C extends ServiceConfig, DB, D extends ServiceDeps<C, DB>>(
  definition: ServiceDefinition<C, DB, D>,
  load: (env: Env) => C,
  env: Env = {},
  options: { databaseUrl?: string } = {},
): Promise<TestService<C, DB, D>> {
  // A restart test passes the database of the first run; the first run owns (and drops) it. A new one comes migrated.
  const databaseUrl =
    options.databaseUrl ??
    (await createTestDatabase(definition.name.replace(/-/g, '_'), serviceMigrations(definition)));
  const config = load({
    LOG_LEVEL: 'silent',
    PORT: '0',
    SERVICE_DATABASE_URL: databaseUrl,
    [`${definition.name.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`]: databaseUrl,
    AMQP_URL: testInfra.amqpUrl,
    AMQP_EXCHANGE: uniqueName('test.events'),
    AMQP_QUEUE_TYPE: 'classic',
    REDIS_URL: testInfra.redisUrl,
    REDIS_KEY_PREFIX: `${uniqueName('t')}:`,
    ...TEST_SECRETS,
    ...env,
  });
  const running = await startService(definition, config);
  return {
    ...running,
    async stop() {
      await running.close();
      if (!options.databaseUrl) await dropTestDatabase(databaseUrl);
      await deleteTestBroker(config.AMQP_EXCHANGE);
    },
  };
}

/**
 * Another replica of a running test service: the same database and the same Redis key prefix (so
 * the same change channels), as `docker compose up --scale` runs them. The first one owns the database.
 */
export function startTestReplica<C extends ServiceConfig, DB, D extends ServiceDeps<C, DB>>(
  definition: ServiceDefinition<C, DB, D>,
  load: (env: Env) => C,
  of: RunningService<C, DB, D>,
  env: Env = {},
): Promise<TestService<C, DB, D>> {
  return startTestService(
    definition,
    load,
    { ...env, REDIS_KEY_PREFIX: of.deps.config.REDIS_KEY_PREFIX },
    { databaseUrl: of.deps.config.SERVICE_DATABASE_URL },
  );
}

/** Reads with `read` until `seen` holds of what it gives; fails after `withinMs` (a change another replica was told of). */
export async function seenWithin<T>(withinMs: number, read: () => Promise<T>, seen: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (seen(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not changed after ${withinMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
