/**
 * Accounts speed (issue 3), through the gateway: `POST /api/auth/login` requests per second and
 * `GET /api/auth/profile` latency (p50 / p99), each at 50 concurrent connections.
 *
 *   node bench/auth.mjs [--duration 10] [--connections 50] [--warmup 2]
 *
 * The auth service and the gateway run as production runs them: their esbuild bundles, each in a
 * child process, on a fresh PostgreSQL database, Redis (a key prefix of its own) and RabbitMQ when
 * reachable; login hashes with the production argon2id parameters. The gateway's login limits are
 * lifted for the run (one client would otherwise be throttled after 10 attempts a minute). The load
 * generator (autocannon) runs in this process, apart from the measured ones.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildServers } from '../deploy/build.mjs';
import { freePorts } from './lib/ports.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JWT_SECRET = `bench-${randomBytes(24).toString('hex')}`;
const BOT_API_KEY = `bench-${randomBytes(8).toString('hex')}`;
const DATABASE_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const AMQP_URL = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);

const children = [];
const run = randomBytes(4).toString('hex');
const databaseUrl = Object.assign(new URL(DATABASE_SERVER), { pathname: `/bench_auth_${run}` }).toString();

try {
  await main();
} finally {
  for (const child of children.reverse()) await stop(child);
  await dropDatabase(databaseUrl).catch((err) => console.error(`could not drop ${databaseUrl}: ${err.message}`));
}

async function main() {
  const { default: autocannon } = await import('autocannon');
  for (const [name, url] of [
    ['PostgreSQL', DATABASE_SERVER],
    ['Redis', REDIS_URL],
  ]) {
    if (!(await reachable(url))) throw new Error(`${name} is not reachable at ${url}`);
  }
  const amqp = (await reachable(AMQP_URL)) ? AMQP_URL : undefined;

  console.log('Building the bundles…');
  await buildServers();

  const [authPort, gatewayPort] = await freePorts(2);
  const admin = { email: `bench-admin-${run}@example.com`, password: 'bench-admin-password' };
  const shared = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    BOT_API_KEY,
    REDIS_URL,
    REDIS_KEY_PREFIX: `bench-${run}:`,
    HOST: '127.0.0.1',
  };
  children.push(
    startChild('auth', 'services/auth/dist/main.js', {
      ...shared,
      PORT: String(authPort),
      AUTH_DATABASE_URL: databaseUrl,
      ...(amqp ? { AMQP_URL: amqp, AMQP_EXCHANGE: `bench.events.${run}` } : {}),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    }),
  );
  const closed = 'http://127.0.0.1:9';
  children.push(
    startChild('gateway', 'gateway/dist/main.js', {
      ...shared,
      PORT: String(gatewayPort),
      AUTH_URL: `http://127.0.0.1:${authPort}`,
      CONTENT_URL: closed,
      BILLING_URL: closed,
      CHAT_HISTORY_URL: closed,
      METRICS_URL: closed,
      WEB_DIR: path.join(ROOT, 'web/dist'),
      RATE_LIMIT_LOGIN_POINTS: '1000000000',
      RATE_LIMIT_LOGIN_ACCOUNT_POINTS: '1000000000',
    }),
  );
  const base = `http://127.0.0.1:${gatewayPort}`;
  await waitForReady(`http://127.0.0.1:${authPort}/readyz`);
  await waitForReady(`${base}/healthz`);

  const user = { email: `bench-user-${run}@example.com`, password: 'bench-password-1' };
  const registered = await postJson(`${base}/api/auth/register`, user);
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const { token } = JSON.parse(registered.text);

  const login = {
    url: `${base}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  };
  const profile = { url: `${base}/api/auth/profile`, headers: { authorization: `Bearer ${token}` } };

  // A login under load waits its turn for argon2id: give each answer up to 30 s before counting it failed.
  const cannon = (options, seconds) => autocannon({ connections, duration: seconds, timeout: 30, ...options });

  // Profile first: logins still hashing after their run would otherwise slow the profile reads.
  console.log(
    `Measuring: ${connections} connections, ${duration} s each after ${warmup} s of warm-up, through the gateway`,
  );
  await cannon(profile, warmup);
  const profileResult = await cannon(profile, duration);
  await cannon(login, warmup);
  const loginResult = await cannon(login, duration);

  const line = (name, result) => {
    const failed = result.non2xx + result.errors + result.timeouts;
    return [
      name.padEnd(26),
      `${result.requests.average.toFixed(1).padStart(8)} req/s`,
      `p50 ${String(result.latency.p50).padStart(4)} ms`,
      `p99 ${String(result.latency.p99).padStart(4)} ms`,
      `${result.requests.total} requests, ${failed} failed`,
    ].join('   ');
  };
  console.log('');
  console.log(line('POST /api/auth/login', loginResult));
  console.log(line('GET  /api/auth/profile', profileResult));
  console.log('');
  console.log(
    `login hashes with argon2id (19 MiB, 2 passes, 1 lane); bus: ${amqp ? 'RabbitMQ' : 'in-process'}; ` +
      `cores: ${(await import('node:os')).availableParallelism()}`,
  );
  if (loginResult.non2xx + profileResult.non2xx > 0) process.exitCode = 1;
}

function startChild(name, file, env) {
  const child = spawn(process.execPath, [path.join(ROOT, file)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.once('exit', (code, signal) => {
    if (!child.stopping) console.error(`${name} exited early (${signal ?? code})`);
  });
  return child;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  child.stopping = true;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function waitForReady(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not become ready in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function reachable(url) {
  const { hostname, port } = new URL(url);
  const fallback = { 'postgres:': 5432, 'redis:': 6379, 'amqp:': 5672 }[new URL(url).protocol];
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || fallback) });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function dropDatabase(url) {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: DATABASE_SERVER });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
