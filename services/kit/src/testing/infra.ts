import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import amqp from 'amqplib';
import { eventSubscriptions } from '@gpt/contracts';
import pg from 'pg';
import { DEFAULT_RETRY_DELAYS_MS, deadLetterQueueOf, retryQueueOf } from '../bus';
import { classicServiceQueue, serviceQueue } from '../service';
import { createDatabaseIfMissing, openDatabase, type Migration } from '../db';
import { createLogger } from '../logger';

/** Where the tests find real PostgreSQL, RabbitMQ and Redis (the local servers unless overridden). */
export const testInfra = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/** A name no other test file will pick: `<prefix>_<random>`, lowercase. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/** The URL of database `name` on the test server. */
function databaseUrl(name: string): string {
  const url = new URL(testInfra.databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database on the test server; drop it with dropTestDatabase. Empty, or with `migrations` applied:
 * then copied from a template database that has them (copying costs a quarter of migrating each time).
 */
export async function createTestDatabase(prefix = 't', migrations?: Record<string, Migration>): Promise<string> {
  const name = uniqueName(prefix);
  if (!migrations) {
    await createDatabaseIfMissing(databaseUrl(name));
    return databaseUrl(name);
  }
  const template = await migratedTemplate(prefix, migrations);
  await withServer(testInfra.databaseUrl, (client) => client.query(`create database "${name}" template "${template}"`));
  return databaseUrl(name);
}

/**
 * A name for exactly these migrations (their names and code, in order of name): what a migrated copy made
 * for tests is kept under, so a change to any migration makes a new one.
 */
export function migrationsVersion(migrations: Record<string, Migration>): string {
  const code = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations).sort(([a], [b]) => a.localeCompare(b))) {
    code.update(`${name}\n${migration.up.toString()}\n${migration.down?.toString() ?? ''}\n`);
  }
  return code.digest('hex').slice(0, 16);
}

/**
 * The template database with exactly these migrations (their names and code make its name), made by the first
 * test file that asks, one process at a time; it stays for later runs and takes no connections (a copy needs none).
 */
async function migratedTemplate(prefix: string, migrations: Record<string, Migration>): Promise<string> {
  const template = `template_${prefix}_${migrationsVersion(migrations)}`;
  await withServer(testInfra.databaseUrl, async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [template]);
    const found = await client.query<{ ready: boolean }>(
      'select datistemplate as ready from pg_database where datname = $1',
      [template],
    );
    if (found.rows[0]?.ready) return;
    // One a crashed run left half made is made again.
    await client.query(`drop database if exists "${template}" with (force)`);
    const logger = createLogger({ name: 'test-template', level: 'silent' });
    const database = await openDatabase({
      service: prefix,
      url: databaseUrl(template),
      migrations,
      logger,
      poolSize: 1,
    });
    await database.close();
    await client.query(`alter database "${template}" with is_template true allow_connections false`);
  });
  return template;
}

/** Runs `work` on a connection of its own to the maintenance database of `url`'s server (a session's locks end with it). */
async function withServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  await withServer(url, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/**
 * Puts a message on the test broker by hand, as a producer's relay (or a broken producer) would:
 * under `routingKey`, persistent, resolved once the broker confirmed it. A string is sent as it is
 * (a poisoned body), anything else as JSON.
 */
export async function publishRaw(exchange: string, routingKey: string, body: unknown): Promise<void> {
  const connection = await amqp.connect(testInfra.amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    channel.publish(exchange, routingKey, content, { persistent: true, contentType: 'application/json' });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

/** Removes what a test's services declared on RabbitMQ: every service's queues (main, retry, dead) and the exchange. */
export async function deleteTestBroker(exchange: string): Promise<void> {
  const connection = await amqp.connect(testInfra.amqpUrl);
  try {
    const channel = await connection.createChannel();
    const services = Object.keys(eventSubscriptions);
    for (const queue of services.flatMap((service) =>
      [serviceQueue, classicServiceQueue].map((name) => name(service, exchange)),
    )) {
      for (const name of [
        queue,
        deadLetterQueueOf(queue),
        ...DEFAULT_RETRY_DELAYS_MS.map((ms) => retryQueueOf(queue, ms)),
      ]) {
        await channel.deleteQueue(name);
      }
    }
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** A loopback port nobody listens on at the moment of asking (for a server that must know its port before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
