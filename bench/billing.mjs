/**
 * Billing (issue 5): from a YooKassa notification received by the gateway to the new balance
 * visible in GET /api/auth/profile, at a steady rate of notifications per second.
 *
 *   node bench/billing.mjs [--rate 50] [--duration 10] [--users 100]
 *
 * The product runs as in production: the gateway and each service in its own process (their
 * TypeScript bundled by esbuild, as deploy/build.mjs does), on PostgreSQL, RabbitMQ and Redis at
 * their standard local ports (or BENCH_DATABASE_URL / BENCH_AMQP_URL / BENCH_REDIS_URL). A fake
 * YooKassa (API v3: create, get) runs in this process, so billing's real client re-fetches every
 * notified payment over HTTP. Each notification is for a different payment of 1.00 ₽ (100 credits);
 * after sending it the bench polls that user's profile until the credits have grown: every 20 ms, or
 * every tenth of the time waited so far once that is longer (so the error stays under 10 % while the
 * polling itself does not load the gateway and auth enough to distort the figures on a small machine).
 * Notifications are sent open-loop on a fixed schedule, whatever the answers take.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef-0123456789abcdef';
const BOT_API_KEY = 'bench-bot-key-0123456789';
const SHOP_ID = '100500';
const SECRET_KEY = 'bench_secret_key';
const POLL_MS = 20;
/** A balance not visible after this long counts as lost (and the run as failed). */
const GIVE_UP_MS = 30_000;
const SERVICES = ['auth', 'content', 'billing', 'chat-history', 'metrics'];
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

if (process.env.BENCH_ROLE === 'fake-yookassa') runFakeYookassa();
else await main();

// ─── the orchestrator ──────────────────────────────────────────────────────────────────────────

async function main() {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '50' },
      duration: { type: 'string', default: '10' },
      users: { type: 'string', default: '100' },
    },
  });
  const rate = Number(values.rate);
  const total = Math.round(rate * Number(values.duration));
  const users = Math.min(Number(values.users), total);

  const infra = await infrastructure();
  const yookassa = await startFakeYookassa();
  const bundles = await buildBundles();
  const run = randomUUID().slice(0, 8);
  const databases = SERVICES.map((name) => databaseUrl(infra.databaseUrl, name, run));
  const ports = Object.fromEntries(
    await Promise.all(['gateway', ...SERVICES].map(async (name) => [name, await freePort()])),
  );
  const urlOf = (name) => `http://127.0.0.1:${ports[name]}`;
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ACCESS_LOG: 'false',
    HOST: '127.0.0.1',
    SITE_URL: urlOf('gateway'),
    JWT_SECRET,
    BOT_API_KEY,
    ADMIN_EMAIL: `admin-${run}@example.com`,
    ADMIN_PASSWORD: 'bench-admin-password',
    ARGON2_MEMORY_KIB: '8192',
    ARGON2_TIME_COST: '1',
    RATE_LIMIT_REGISTER_POINTS: '100000',
    YOOKASSA_API_URL: yookassa.url,
    YOOKASSA_SHOP_ID: SHOP_ID,
    YOOKASSA_SECRET_KEY: SECRET_KEY,
    AMQP_URL: infra.amqpUrl,
    AMQP_EXCHANGE: `bench.billing.${run}`,
    REDIS_URL: infra.redisUrl,
    REDIS_KEY_PREFIX: `bench-${run}:`,
    ...Object.fromEntries(SERVICES.map((name, i) => [`${envName(name)}_DATABASE_URL`, databases[i]])),
    ...Object.fromEntries(SERVICES.map((name) => [`${envName(name)}_URL`, urlOf(name)])),
  };
  const processes = [];
  const stopAll = async () => {
    for (const child of processes.reverse()) await child.stop();
  };
  let failed = false;
  try {
    // Billing first: its queue must exist before auth announces the admin; the gateway last.
    for (const name of ['billing', 'auth', 'content', 'chat-history', 'metrics', 'gateway']) {
      const child = startProcess(name, bundles[name], { ...env, PORT: String(ports[name]) });
      processes.push(child);
      await waitForReady(`${urlOf(name)}${name === 'gateway' ? '/healthz' : '/readyz'}`, child);
    }
    const site = urlOf('gateway');
    console.log(
      `billing bench: ${rate} notifications/s for ${values.duration} s (${total}), ${users} users; node ${process.version}; ` +
        'gateway and 5 services in their own processes on PostgreSQL + RabbitMQ + Redis',
    );

    // Arrange: users and their pending top-ups, each already paid at the fake provider.
    const accounts = await inParallel(users, 8, (i) => register(site, `bench-${run}-${i}@example.com`));
    const perUser = Math.ceil(total / users);
    const payments = [];
    for (let round = 0; round < perUser && payments.length < total; round++) {
      const batch = accounts.slice(0, Math.min(users, total - payments.length));
      const created = await inParallel(batch.length, 8, (i) => topUp(site, batch[i], yookassa, round));
      payments.push(...created);
    }
    await yookassa.succeed(payments.map((payment) => payment.providerId));
    const webhook = `${site}/api/billing/webhooks/yookassa`;

    // Warm-up outside the measurement: one notification, waited for.
    await measureOne(site, webhook, payments.shift());

    const results = [];
    const cpuBefore = processes.map((p) => cpuMs(p.child.pid));
    const started = performance.now();
    await Promise.all(
      payments.map(async (payment, i) => {
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        results.push(await measureOne(site, webhook, payment));
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cpuPerNotification = processes
      .map((p, i) => `${p.name} ${((cpuMs(p.child.pid) - cpuBefore[i]) / results.length).toFixed(2)}`)
      .join(', ');

    const endToEnd = results.map((r) => r.visibleMs).filter((ms) => ms !== null);
    const answered = results.map((r) => r.webhookMs);
    const refused = results.filter((r) => r.status !== 200);
    const errors = refused.length;
    const byStatus = Object.entries(Object.groupBy(refused, (r) => r.status)).map(([k, v]) => `${k}×${v.length}`);
    const lost = results.length - endToEnd.length;
    console.log(
      `sent ${results.length} in ${elapsed.toFixed(1)} s (${(results.length / elapsed).toFixed(1)}/s), non-200 answers: ${errors}${errors ? ` (${byStatus.join(', ')})` : ''}`,
    );
    console.log(`webhook answered (ms)          ${summary(answered)}`);
    console.log(`new balance in /api/auth/profile (ms) ${summary(endToEnd)}`);
    console.log(`CPU ms per notification (incl. the profile polls): ${cpuPerNotification}`);
    const pending = await pendingPayments(site, env);
    console.log(
      `provider re-fetches: ${await yookassa.gets()}; balances never visible: ${lost}; payments still pending: ${pending}`,
    );
    failed = errors > 0 || lost > 0 || pending > 0;
  } finally {
    await stopAll();
    await yookassa.stop();
    await dropDatabases(databases);
  }
  process.exit(failed ? 1 : 0);
}

/** Sends one notification and polls the payer's profile until the credits are there. */
async function measureOne(site, webhook, payment) {
  const start = performance.now();
  const res = await fetch(webhook, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      type: 'notification',
      event: 'payment.succeeded',
      object: { id: payment.providerId, status: 'succeeded' },
    }),
  });
  await res.arrayBuffer();
  const webhookMs = performance.now() - start;
  for (;;) {
    const profile = await fetch(`${site}/api/auth/profile`, { headers: { Authorization: `Bearer ${payment.token}` } });
    const body = await profile.json();
    if (body.credits >= payment.expectedCredits) break;
    if (performance.now() - start > GIVE_UP_MS) return { status: res.status, webhookMs, visibleMs: null };
    const waited = performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, Math.max(POLL_MS, waited / 10)));
  }
  return { status: res.status, webhookMs, visibleMs: performance.now() - start };
}

/** Every notified payment must have left `pending` (asked through the admin API). */
async function pendingPayments(site, env) {
  const login = await fetch(`${site}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
  });
  const { token } = await login.json();
  const res = await fetch(`${site}/api/admin/payments?status=pending&limit=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await res.json()).total;
}

async function register(site, email) {
  const res = await fetch(`${site}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  const { token } = await res.json();
  return { token };
}

/** A 1.00 ₽ top-up (100 credits on Base); billing may need a moment to learn a brand-new user. */
async function topUp(site, account, yookassa, round) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${site}/api/billing/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
      body: JSON.stringify({ amount: '1.00' }),
    });
    if (res.status === 201) {
      const { payment_id: paymentId } = await res.json();
      const providerId = await yookassa.providerIdOf(paymentId);
      return { token: account.token, providerId, expectedCredits: (round + 1) * 100 };
    }
    if (res.status !== 503 || attempt > 50) throw new Error(`top-up: ${res.status} ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const f = (v) => v.toFixed(1).padStart(7);
  return `p50 ${f(at(0.5))}  p95 ${f(at(0.95))}  p99 ${f(at(0.99))}  max ${f(sorted.at(-1))}`;
}

async function inParallel(count, width, work) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

// ─── the fake provider, in a process of its own ────────────────────────────────────────────────

/**
 * YooKassa API v3 as billing uses it: create (idempotent by key) and get, with Basic auth. It runs
 * in its own process, so the bench's polling never slows the provider billing waits for. The
 * bench's own calls live under /_bench/.
 */
function runFakeYookassa() {
  const payments = new Map();
  const byKey = new Map();
  const byOurId = new Map();
  let gets = 0;
  const expected = `Basic ${Buffer.from(`${SHOP_ID}:${SECRET_KEY}`).toString('base64')}`;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status, body) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      if (url.pathname === '/_bench/provider-id')
        return reply(200, { id: byOurId.get(url.searchParams.get('payment_id')) });
      if (url.pathname === '/_bench/succeed') {
        for (const id of body) {
          payments.set(id, {
            ...payments.get(id),
            status: 'succeeded',
            paid: true,
            captured_at: new Date().toISOString(),
          });
        }
        return reply(200, { ok: true });
      }
      if (url.pathname === '/_bench/stats') return reply(200, { gets });

      if (req.headers.authorization !== expected) return reply(401, { type: 'error', code: 'invalid_credentials' });
      const single = /^\/v3\/payments\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && url.pathname === '/v3/payments') {
        const key = req.headers['idempotence-key'];
        let id = byKey.get(key);
        if (!id) {
          id = randomUUID();
          byKey.set(key, id);
          byOurId.set(body.metadata.payment_id, id);
          payments.set(id, {
            id,
            status: 'pending',
            paid: false,
            amount: body.amount,
            description: body.description,
            metadata: body.metadata,
            confirmation: { type: 'redirect', confirmation_url: `https://yoomoney.fake/checkout?orderId=${id}` },
            created_at: new Date().toISOString(),
            test: true,
          });
        }
        return reply(200, payments.get(id));
      }
      if (req.method === 'GET' && single) {
        gets++;
        const payment = payments.get(single[1]);
        return payment ? reply(200, payment) : reply(404, { type: 'error', code: 'not_found' });
      }
      return reply(404, { type: 'error', code: 'not_found' });
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

async function startFakeYookassa() {
  const port = await freePort();
  const child = startProcess('fake-yookassa', SELF, { PORT: String(port), BENCH_ROLE: 'fake-yookassa' });
  const base = `http://127.0.0.1:${port}`;
  await waitForReady(`${base}/_bench/stats`, child);
  const call = async (path, body) => {
    const res = await fetch(`${base}/_bench/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  return {
    url: `${base}/v3`,
    providerIdOf: async (paymentId) => (await call(`provider-id?payment_id=${paymentId}`)).id,
    succeed: (ids) => call('succeed', ids),
    gets: async () => (await call('stats')).gets,
    stop: () => child.stop(),
  };
}

// ─── the product, one process per service ──────────────────────────────────────────────────────

/** The gateway's and each service's main.ts bundled by esbuild (workspace TypeScript inlined, npm packages external). */
async function buildBundles() {
  const esbuild = await import('esbuild');
  const dir = path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'billing');
  await mkdir(dir, { recursive: true });
  const entries = {
    gateway: 'gateway/src/main.ts',
    ...Object.fromEntries(SERVICES.map((n) => [n, `services/${n}/src/main.ts`])),
  };
  const bundles = {};
  await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => {
      bundles[name] = path.join(dir, `${name}.mjs`);
      await esbuild.build({
        entryPoints: [path.join(ROOT, entry)],
        outfile: bundles[name],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node24',
        logLevel: 'warning',
        plugins: [
          {
            name: 'npm-packages-external',
            setup(build) {
              build.onResolve({ filter: /^[^./]/ }, (args) =>
                args.path.startsWith('@gpt/') ? undefined : { path: args.path, external: true },
              );
            },
          },
        ],
      });
    }),
  );
  return bundles;
}

function startProcess(name, file, env) {
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let stopping = false;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', (code) => {
    if (!stopping) console.error(`${name} exited unexpectedly (${code})`);
  });
  return {
    name,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopping = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** User + system CPU time a process has used so far (Linux /proc). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function waitForReady(url, process, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) throw new Error(`${url}: the process exited`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

// ─── infrastructure ────────────────────────────────────────────────────────────────────────────

async function infrastructure() {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const checks = [
    ['PostgreSQL', databaseUrl, 5432],
    ['RabbitMQ', amqpUrl, 5672],
    ['Redis', redisUrl, 6379],
  ];
  for (const [name, url, port] of checks) {
    if (!(await reachable(url, port)))
      throw new Error(`${name} does not answer at ${url}; start it or set BENCH_*_URL`);
  }
  return { databaseUrl, amqpUrl, redisUrl };
}

function databaseUrl(server, service, run) {
  const url = new URL(server);
  url.pathname = `/bench_${service.replace('-', '_')}_${run}`;
  return url.toString();
}

function envName(service) {
  return service.toUpperCase().replace('-', '_');
}

async function dropDatabases(urls) {
  const { default: pg } = await import('pg');
  const admin = new URL(urls[0]);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    for (const url of urls) {
      await client.query(
        `drop database if exists "${decodeURIComponent(new URL(url).pathname.slice(1))}" with (force)`,
      );
    }
  } finally {
    await client.end();
  }
}

function reachable(url, fallbackPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || fallbackPort), hostname);
    socket.setTimeout(1000, () => {
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

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
