import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventSchemas, eventSubscriptions } from '@gpt/contracts';
import type { Express } from 'express';
import { sql, type Kysely, type Migration } from 'kysely';
import { z } from 'zod';
import { type Bus, type Consumer, type InProcessBroker, busMigrations, createBus, createInProcessBroker } from './bus';
import { port, serviceDatabaseUrl, serviceEnv } from './config';
import { openDatabase } from './db';
import { createKeyValue, type KeyValue } from './kv';
import { runSteps, type ShutdownStep } from './lifecycle';
import { createLogger, type LogFormat, type Logger } from './logger';
import { withTimeout } from './timeout';

/**
 * The env schema of a service: the shared variables, its port, and `<NAME>_DATABASE_URL`
 * (its own database, overriding the server named by DATABASE_URL), read as SERVICE_DATABASE_URL.
 */
export function serviceConfigSchema<Extra extends z.ZodRawShape = Record<never, never>>(
  name: string,
  defaultPort: number,
  extra?: Extra,
) {
  const override = `${name.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
  const shape = {
    ...serviceEnv,
    PORT: port(defaultPort),
    SERVICE_DATABASE_URL: z.url({ error: `${override} must be a URL` }).optional(),
    ...(extra ?? ({} as Extra)),
  };
  return z.preprocess(
    (env) => ({
      ...(env as Record<string, unknown>),
      SERVICE_DATABASE_URL: (env as Record<string, unknown>)[override],
    }),
    z.object(shape),
  );
}

export interface ServiceConfig {
  NODE_ENV: 'development' | 'production' | 'test';
  LOG_LEVEL: string;
  LOG_FORMAT?: LogFormat;
  HOST: string;
  PORT: number;
  JWT_SECRET: string;
  BOT_API_KEY: string;
  DATABASE_URL?: string;
  SERVICE_DATABASE_URL?: string;
  AMQP_URL?: string;
  AMQP_EXCHANGE: string;
  AMQP_QUEUE_TYPE: 'quorum' | 'classic';
  REDIS_URL?: string;
  REDIS_KEY_PREFIX: string;
  DATA_DIR: string;
  DATABASE_POOL_SIZE: number;
}

export type EventSchemas = typeof eventSchemas;

export interface ServiceDeps<C extends ServiceConfig, DB> {
  config: C;
  logger: Logger;
  db: Kysely<DB>;
  bus: Bus<DB, EventSchemas>;
  kv: KeyValue;
}

/**
 * Everything a service is, apart from its environment; main.ts and the in-process launcher both start it.
 * `D` is what the service makes of its connections (providers, caches, clients): `wire` builds it once
 * per start, and every other hook receives that same object.
 */
export interface ServiceDefinition<C extends ServiceConfig, DB, D extends ServiceDeps<C, DB> = ServiceDeps<C, DB>> {
  name: string;
  migrations: Record<string, Migration>;
  /** Builds the service's deps from the connections, once, before any other hook; nothing in it connects or starts yet. */
  wire(base: ServiceDeps<C, DB>): D;
  consumers?: (deps: D) => Consumer<DB, EventSchemas>[];
  buildApp(deps: D): Express;
  /** Seeds and background jobs, after migrations and before listening; may return their stop step. */
  onStart?(deps: D): Promise<(() => Promise<void>) | void>;
  /**
   * Once the service listens, with its own address, for work that calls the service itself; its
   * stop step runs first at shutdown, before the server waits for the requests in flight.
   */
  onListening?(deps: D, url: string): (() => Promise<void>) | void;
  /** Releases what `wire` made (a cache's change channel), after the jobs stop and before the bus closes. */
  close?(deps: D): Promise<void>;
}

export interface RunningService<C extends ServiceConfig, DB, D extends ServiceDeps<C, DB> = ServiceDeps<C, DB>> {
  name: string;
  url: string;
  /** The HTTP handler behind `url`; a gateway in the same process hands requests to it directly. */
  app: Express;
  deps: D;
  close(): Promise<void>;
}

const BROKER_WAIT_MS = 5000;

const onExchange = (name: string, exchange: string) => (exchange === 'app.events' ? name : `${name}@${exchange}`);
/** One queue per service and exchange, so parallel test runs (each on an exchange of its own) never take each other's events. */
export const serviceQueue = (service: string, exchange: string) => onExchange(`${service}.events`, exchange);
/** The service's classic queue of earlier versions, drained into the quorum one (docs/architecture.md). */
export const classicServiceQueue = (service: string, exchange: string) => onExchange(service, exchange);

/** What a service's database is migrated with: the bus's outbox and inbox tables, then its own. */
export const serviceMigrations = (definition: {
  migrations: Record<string, Migration>;
}): Record<string, Migration> => ({
  ...busMigrations,
  ...definition.migrations,
});

/** Connections → migrations → bus → wire → app → listen; close() undoes it (docs/architecture.md, How a service is built). */
export async function startService<C extends ServiceConfig, DB, D extends ServiceDeps<C, DB>>(
  definition: ServiceDefinition<C, DB, D>,
  config: C,
  options: { broker?: InProcessBroker; kv?: KeyValue; logger?: Logger } = {},
): Promise<RunningService<C, DB, D>> {
  const logger =
    options.logger ?? createLogger({ name: definition.name, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const database = await openDatabase<DB>({
    service: definition.name,
    url: serviceDatabaseUrl(definition.name, config, config.SERVICE_DATABASE_URL),
    dataDir: config.DATA_DIR,
    migrations: serviceMigrations(definition),
    logger,
    poolSize: config.DATABASE_POOL_SIZE,
    trackTransactions: config.NODE_ENV !== 'production',
  });
  // The embedded default shares one in-memory store between the services and the gateway of its process.
  const ownKv = options.kv ? undefined : createKeyValue({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  const kv = options.kv ?? ownKv!;
  const bus = createBus<DB, EventSchemas>({
    service: definition.name,
    db: database.db,
    schemas: eventSchemas,
    logger,
    amqpUrl: config.AMQP_URL,
    exchange: config.AMQP_EXCHANGE,
    queue: serviceQueue(definition.name, config.AMQP_EXCHANGE),
    classicQueue: classicServiceQueue(definition.name, config.AMQP_EXCHANGE),
    queueType: config.AMQP_QUEUE_TYPE,
    peers: Object.entries(eventSubscriptions)
      .filter(([service]) => service !== definition.name)
      .map(([service, types]) => ({ queue: serviceQueue(service, config.AMQP_EXCHANGE), types })),
    // Without a broker URL the service is alone in its process with an in-process bus (the embedded default).
    broker: config.AMQP_URL ? undefined : (options.broker ?? createInProcessBroker()),
  });
  const deps = definition.wire({ config, logger, db: database.db, bus, kv });
  const subscribed: readonly string[] = eventSubscriptions[definition.name as keyof typeof eventSubscriptions] ?? [];
  for (const consumer of definition.consumers?.(deps) ?? []) {
    if (!subscribed.includes(consumer.event)) {
      throw new Error(`${definition.name} consumes ${consumer.event}: add it to eventSubscriptions in contracts`);
    }
    bus.consume(consumer);
  }
  // Seeds check what is there before adding it; one replica at a time, so two never both find nothing.
  const stopJobs = await database.exclusive(async () => definition.onStart?.(deps));
  await bus.start();
  // A broker that is down only delays events (they wait in the outbox); say so, and serve anyway.
  await withTimeout(bus.ready(), BROKER_WAIT_MS).catch(() =>
    logger.warn('message broker not reachable yet; events wait in the outbox until it is'),
  );

  const app = definition.buildApp(deps);
  const server: Server = app.listen(config.PORT, config.HOST);
  const stopStarted: ShutdownStep[] = [
    ['jobs', async () => stopJobs?.()],
    ['wiring', async () => definition.close?.(deps)],
    ['bus', () => bus.close()],
    ['redis', async () => ownKv?.close()],
    ['database', () => database.close()],
  ];
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (err) {
    // The port is taken: what started stops, so nothing of this start goes on consuming events or holding connections.
    await runSteps(logger, stopStarted);
    throw err;
  }
  // Longer than any client's keep-alive, so a proxy never reuses a socket we are closing.
  server.keepAliveTimeout = 65_000;
  const { port: boundPort } = server.address() as AddressInfo;
  const url = `http://${config.HOST}:${boundPort}`;
  logger.info({ url }, `${definition.name} listening`);
  const stopSelfCalls = definition.onListening?.(deps, url);

  const steps: ShutdownStep[] = [
    ['self-calls', async () => stopSelfCalls?.()],
    ['http', () => closeServer(server)],
    ...stopStarted,
  ];
  let closing: Promise<void> | undefined;
  return { name: definition.name, url, app, deps, close: () => (closing ??= runSteps(logger, steps)) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** The readiness checks every service answers /readyz with: its database, the broker and Redis. */
export function standardReadiness<C extends ServiceConfig, DB>(deps: ServiceDeps<C, DB>) {
  return {
    database: async () => {
      await sql`select 1`.execute(deps.db);
    },
    broker: () => deps.bus.ping(),
    redis: () => deps.kv.ping(),
  };
}
