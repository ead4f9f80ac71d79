// The servers the product runs on (PostgreSQL, RabbitMQ, Redis: the local ones, or BENCH_DATABASE_URL,
// BENCH_AMQP_URL, BENCH_REDIS_URL) and the benches' databases on that PostgreSQL.
import { connect } from 'node:net';
import pg from 'pg';

export const servers = {
  postgres: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  amqp: process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  redis: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
/**
 * Queues the benches declare. Classic, as the test stacks do: each run declares and deletes a few
 * hundred queues, and that churn of quorum queues on the shared local broker left it accepting
 * connections it never answered. What the benches measure does not wait on the queue type.
 */
export const BENCH_QUEUE_TYPE = process.env.BENCH_QUEUE_TYPE ?? 'classic';

const NAMES = {
  postgres: 'PostgreSQL (BENCH_DATABASE_URL)',
  amqp: 'RabbitMQ (BENCH_AMQP_URL)',
  redis: 'Redis (BENCH_REDIS_URL)',
};
const DEFAULT_PORTS = { 'postgres:': 5432, 'amqp:': 5672, 'redis:': 6379 };

/** Whether something accepts connections at the URL's host and port. */
export function reachable(url) {
  const { hostname, port, protocol } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || DEFAULT_PORTS[protocol]), hostname);
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Throws unless each of the named servers ('postgres', 'amqp', 'redis') answers. */
export async function requireServers(...names) {
  for (const name of names) {
    if (!(await reachable(servers[name]))) throw new Error(`${NAMES[name]} does not answer at ${servers[name]}`);
  }
}

/** The URL of database `name` on the benchmark's PostgreSQL server. */
export function databaseUrl(name) {
  return Object.assign(new URL(servers.postgres), { pathname: `/${name}` }).toString();
}

export async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The `n` of a one-row query, or -1 when the database or its tables are not there yet. */
export async function countRows(url, query) {
  try {
    return await withClient(url, async (client) => Number((await client.query(query)).rows[0].n));
  } catch {
    return -1;
  }
}

async function onServer(work) {
  return withClient(databaseUrl('postgres'), work);
}

const nameOf = (url) => decodeURIComponent(new URL(url).pathname.slice(1));

export async function recreateDatabase(url) {
  await onServer(async (client) => {
    await client.query(`drop database if exists "${nameOf(url)}" with (force)`);
    await client.query(`create database "${nameOf(url)}"`);
  });
}

export async function dropDatabases(urls) {
  await onServer(async (client) => {
    for (const url of urls) await client.query(`drop database if exists "${nameOf(url)}" with (force)`);
  });
}

export async function serverVersion() {
  return onServer(async (client) => `PostgreSQL ${(await client.query('show server_version')).rows[0].server_version}`);
}

/** The comment on the database at `url` (null when it has none or does not exist). */
export async function databaseComment(url) {
  return onServer(async (client) => {
    const { rows } = await client.query(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
      [nameOf(url)],
    );
    return rows[0]?.comment ?? null;
  });
}

export async function commentOnDatabase(url, text) {
  await onServer((client) =>
    client.query(`comment on database ${client.escapeIdentifier(nameOf(url))} is ${client.escapeLiteral(text)}`),
  );
}
