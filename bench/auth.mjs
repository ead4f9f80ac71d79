/**
 * Accounts speed (issue 3): `POST /api/auth/login` requests per second and `GET /api/auth/profile`
 * requests per second and latency (p50 / p99), each at 50 concurrent connections, through the
 * gateway and straight at the auth service (the reference: what the gateway adds).
 *
 *   node bench/auth.mjs [--duration 10] [--connections 50] [--warmup 2] [--smoke] [--json FILE]
 *
 * The auth service and the gateway run as production runs them: their esbuild bundles, each in a
 * child process, on a fresh PostgreSQL database, Redis (a key prefix of its own) and RabbitMQ when
 * reachable; login hashes with the production argon2id parameters. The gateway's login limits are
 * lifted for the run (one client would otherwise be throttled after 10 attempts a minute). The load
 * generator (autocannon) runs in this process, apart from the measured ones. --smoke: 10 connections,
 * one-second runs.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { bundleMains } from './lib/bundle.mjs';
import { databaseUrl, dropDatabases, reachable, requireServers, servers } from './lib/infra.mjs';
import { call, cannon } from './lib/load.mjs';
import { benchArgs } from './lib/options.mjs';
import { onInterrupt, withProcesses } from './lib/processes.mjs';
import { CLOSED, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns } from './lib/stats.mjs';

const values = benchArgs(
  {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
  },
  { duration: '1', connections: '10', warmup: '1' },
);
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);

const run = randomBytes(4).toString('hex');
const database = databaseUrl(`bench_auth_${run}`);
onInterrupt(() => dropDatabases([database]));
try {
  await withProcesses(main);
} finally {
  await dropDatabases([database]).catch((err) => console.error(`could not drop ${database}: ${err.message}`));
}

async function main(group) {
  await requireServers('postgres', 'redis');
  const amqp = (await reachable(servers.amqp)) ? servers.amqp : undefined;
  const bundles = await bundleMains('auth', ['auth', 'gateway']);

  const shared = { REDIS_URL: servers.redis, REDIS_KEY_PREFIX: `bench-${run}:` };
  const auth = await startService(group, 'auth', bundles.auth, {
    ...shared,
    AUTH_DATABASE_URL: database,
    ...(amqp ? { AMQP_URL: amqp, AMQP_EXCHANGE: `bench.events.${run}` } : {}),
    ADMIN_EMAIL: `bench-admin-${run}@example.com`,
    ADMIN_PASSWORD: 'bench-admin-password',
  });
  const gateway = await startGateway(group, {
    script: bundles.gateway,
    upstreamOf: (service) => (service === 'auth' ? auth.url : CLOSED),
    env: { ...shared, RATE_LIMIT_LOGIN_POINTS: '1000000000', RATE_LIMIT_LOGIN_ACCOUNT_POINTS: '1000000000' },
  });

  const user = { email: `bench-user-${run}@example.com`, password: 'bench-password-1' };
  const { token } = await call(`${gateway.url}/api/auth/register`, { method: 'POST', body: user, expect: 201 });
  const login = (base) => ({
    url: `${base}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  const profile = (base) => ({ url: `${base}/api/auth/profile`, headers: { authorization: `Bearer ${token}` } });

  console.log(
    `auth bench: ${connections} connections, ${duration} s each after ${warmup} s of warm-up; ` +
      `login hashes with argon2id (19 MiB, 2 passes, 1 lane); bus: ${amqp ? 'RabbitMQ' : 'in-process'}; ` +
      `node ${process.version}; cores: ${availableParallelism()}`,
  );
  const line = columns([
    ['request', 24],
    ['via', 9],
    ['req/s', -9],
    ['p50 ms', -9],
    ['p99 ms', -9],
    ['requests', -10],
    ['failed', -8],
  ]);
  console.log(`\n${line.header}`);
  const results = {};
  // Profile first: logins still hashing after their run would otherwise slow the profile reads.
  for (const [name, target] of [
    ['GET  /api/auth/profile', profile],
    ['POST /api/auth/login', login],
  ]) {
    for (const [via, base] of [
      ['gateway', gateway.url],
      ['direct', auth.url],
    ]) {
      await cannon(target(base), { connections, duration: warmup });
      await drain(auth.url, user);
      const result = await cannon(target(base), { connections, duration });
      await drain(auth.url, user);
      results[`${name} ${via}`] = result;
      console.log(line([name, via, result.rps.toFixed(1), result.p50, result.p99, result.total, result.failed]));
    }
  }
  const of = (name, via) => results[`${name} ${via}`];
  const ok = Object.values(results).every((result) => result.failed === 0);
  await writeFigures(
    values.json,
    [
      figure(
        `login rate, POST /api/auth/login, ${connections} connections`,
        'req/s',
        ['gateway', of('POST /api/auth/login', 'gateway').rps],
        ['direct', of('POST /api/auth/login', 'direct').rps],
        'argon2id 19 MiB, 2 passes',
      ),
      ...['rps', 'p99'].map((key) =>
        figure(
          `authenticated read GET /api/auth/profile, ${connections} connections: ${key === 'rps' ? 'req/s' : 'p99'}`,
          key === 'rps' ? 'req/s' : 'ms',
          ['gateway', of('GET  /api/auth/profile', 'gateway')[key]],
          ['direct', of('GET  /api/auth/profile', 'direct')[key]],
          'real auth service, PostgreSQL',
        ),
      ),
    ],
    ok,
  );
  if (!ok) process.exitCode = 1;
}

/** One login, answered once the hashes still queued from a run are done: the next run starts on an idle service. */
async function drain(base, user) {
  await call(`${base}/api/auth/login`, { method: 'POST', body: user });
}
