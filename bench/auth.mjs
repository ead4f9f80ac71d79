/**
 * Accounts speed: `POST /api/auth/login` requests per second and `GET /api/auth/profile`
 * requests per second and latency (p50 / p99), each at 50 concurrent connections, through the
 * gateway and straight at the auth service (the reference: what the gateway adds).
 *
 *   node bench/auth.mjs [--duration 10] [--connections 50] [--warmup 2] [--cpu-prof DIR] [--smoke] [--json FILE]
 *
 * The auth service and the gateway run as production runs them: their esbuild bundles, each in a
 * child process, on a fresh PostgreSQL database, Redis (a key prefix of its own) and RabbitMQ when
 * reachable; login hashes with the production argon2id parameters. The gateway's login limits are
 * lifted for the run (one client would otherwise be throttled after 10 attempts a minute). The load
 * generator (autocannon) runs in this process, apart from the measured ones. --smoke: 10 connections,
 * one-second runs, no warm-up.
 *
 * The target for the profile read: through the gateway ≥ 0.5× the gateway's own ceiling with
 * p99 ≤ 50 ms. The ceiling is the gateway in front of gateway.mjs's trivial JSON service (its
 * `--upstream` role), asked for the same path with a token it checks the same way, measured in this run
 * before and after the profile reads (their mean). Beside each run: the CPU time per request of the
 * gateway that answered and of the auth service (from /proc, so it holds on a busy machine where req/s
 * and p99 swing) and the load average. --cpu-prof DIR: the auth service writes a V8 CPU
 * profile there when it stops.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundleMains } from './lib/bundle.mjs';
import { BENCH_QUEUE_TYPE, databaseUrl, dropDatabases, reachable, requireServers, servers } from './lib/infra.mjs';
import { call, cannon, warmUp } from './lib/load.mjs';
import { benchArgs, targetVerdict } from './lib/options.mjs';
import { freePorts, waitForPort } from './lib/ports.mjs';
import { cpuMs, onInterrupt, withProcesses } from './lib/processes.mjs';
import { CLOSED, local, signToken, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns } from './lib/stats.mjs';

const values = benchArgs(
  {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    'cpu-prof': { type: 'string' },
  },
  { duration: '1', connections: '10', warmup: '0' },
);
/** the profile read through the gateway against the gateway's ceiling. */
const PROFILE_TARGET_RATIO = 0.5;
const PROFILE_TARGET_P99_MS = 50;
/** gateway.mjs runs the trivial JSON service behind the ceiling's gateway (its `--upstream` role). */
const GATEWAY_BENCH = fileURLToPath(new URL('./gateway.mjs', import.meta.url));
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
    ...(amqp ? { AMQP_URL: amqp, AMQP_QUEUE_TYPE: BENCH_QUEUE_TYPE, AMQP_EXCHANGE: `bench.events.${run}` } : {}),
    ADMIN_EMAIL: `bench-admin-${run}@example.com`,
    ADMIN_PASSWORD: 'bench-admin-password',
    ...(values['cpu-prof'] ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${values['cpu-prof']}` } : {}),
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
  const ceiling = await startCeiling(group, bundles.gateway, shared);
  const line = columns([
    ['request', 24],
    ['via', 9],
    ['req/s', -9],
    ['p50 ms', -9],
    ['p99 ms', -9],
    ['requests', -10],
    ['failed', -8],
    ['gateway CPU µs/req', -20],
    ['auth CPU µs/req', -17],
    ['load', -6],
  ]);
  console.log(`\n${line.header}`);
  const results = {};
  // CPU time per request of the gateway that answered (if any) and of the auth service (if it was asked).
  const processesOf = { ceiling: [ceiling.gateway, undefined], gateway: [gateway, auth], direct: [undefined, auth] };
  const measure = async (name, via, target) => {
    await warmUp(target, { connections, duration: warmup });
    await drain(auth.url, user);
    const pids = processesOf[via].map((process) => process?.child.pid);
    const cpuBefore = pids.map(cpuMs);
    const result = await cannon(target, { connections, duration });
    const cpu = pids.map((pid, i) => (pid ? (((cpuMs(pid) - cpuBefore[i]) * 1000) / result.total).toFixed(0) : '-'));
    await drain(auth.url, user);
    results[`${name} ${via}`] = result;
    const row = [name, via, result.rps.toFixed(1), result.p50, result.p99, result.total, result.failed];
    console.log(line([...row, ...cpu, loadavg()[0].toFixed(1)]));
    return result;
  };
  // Profile first, between the two ceiling runs: logins still hashing after their run would otherwise slow them.
  const ceilingBefore = await measure('GET  /api/auth/profile', 'ceiling', ceiling.profile);
  const viaGateway = await measure('GET  /api/auth/profile', 'gateway', profile(gateway.url));
  await measure('GET  /api/auth/profile', 'direct', profile(auth.url));
  const ceilingAfter = await measure('GET  /api/auth/profile', 'ceiling', ceiling.profile);
  await measure('POST /api/auth/login', 'gateway', login(gateway.url));
  await measure('POST /api/auth/login', 'direct', login(auth.url));

  const ceilingRps = (ceilingBefore.rps + ceilingAfter.rps) / 2;
  const ratio = viaGateway.rps / ceilingRps;
  const verdict = targetVerdict(ratio >= PROFILE_TARGET_RATIO && viaGateway.p99 <= PROFILE_TARGET_P99_MS);
  const target = `target ≥ ${PROFILE_TARGET_RATIO}× and p99 ≤ ${PROFILE_TARGET_P99_MS} ms: ${verdict.text}`;
  console.log(
    `\nceiling: the gateway in front of a trivial JSON service, ${ceilingBefore.rps.toFixed(0)} req/s before and ` +
      `${ceilingAfter.rps.toFixed(0)} after the profile reads\n` +
      `GET /api/auth/profile through the gateway: ${ratio.toFixed(2)}× the ceiling, p99 ${viaGateway.p99} ms; ` +
      `target ≥ ${PROFILE_TARGET_RATIO}× with p99 ≤ ${PROFILE_TARGET_P99_MS} ms → ${verdict.text}`,
  );
  const of = (name, via) => results[`${name} ${via}`];
  const ok = verdict.ok && Object.values(results).every((result) => result.failed === 0);
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
      figure(
        `GET /api/auth/profile, ${connections} connections: req/s vs the gateway's ceiling`,
        'req/s',
        ['gateway', viaGateway.rps],
        ['ceiling', ceilingRps],
        `p99 ${viaGateway.p99} ms; ${target}`,
      ),
      ...['rps', 'p99'].map((key) =>
        figure(
          `authenticated read GET /api/auth/profile, ${connections} connections: ${key === 'rps' ? 'req/s' : 'p99'}`,
          key === 'rps' ? 'req/s' : 'ms',
          ['gateway', of('GET  /api/auth/profile', 'gateway')[key]],
          ['direct', of('GET  /api/auth/profile', 'direct')[key]],
          'real auth service, PostgreSQL; profile kept until it changes',
        ),
      ),
    ],
    ok,
  );
  if (!ok) process.exitCode = 1;
}

/**
 * The ceiling: a gateway like the measured one (same store, same checks) in front of gateway.mjs's
 * trivial JSON service; `profile` is the same read there, with a token that gateway accepts.
 */
async function startCeiling(group, gatewayBundle, env) {
  const [upstreamPort] = await freePorts(1);
  group.node('upstream', GATEWAY_BENCH, { PORT: String(upstreamPort) }, ['--upstream']);
  await waitForPort(upstreamPort);
  const ceiling = await startGateway(group, { script: gatewayBundle, upstreamOf: () => local(upstreamPort), env });
  const token = signToken('user', 42);
  return {
    gateway: ceiling,
    profile: { url: `${ceiling.url}/api/auth/profile`, headers: { authorization: `Bearer ${token}` } },
  };
}

/** One login, answered once the hashes still queued from a run are done: the next run starts on an idle service. */
async function drain(base, user) {
  await call(`${base}/api/auth/login`, { method: 'POST', body: user });
}
