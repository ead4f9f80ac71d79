/**
 * Billing: from a YooKassa notification received by the gateway to the new balance
 * visible in GET /api/auth/profile, at a steady rate of notifications per second.
 *
 *   node bench/billing.mjs [--rate 50] [--duration 10] [--users 100] [--smoke] [--json FILE]
 *
 * The product runs as in production: the gateway and each service in its own process (their
 * TypeScript bundled by esbuild, as deploy/build.mjs does), on PostgreSQL, RabbitMQ and Redis at
 * their standard local ports (or BENCH_DATABASE_URL / BENCH_AMQP_URL / BENCH_REDIS_URL). A fake
 * YooKassa (API v3: create, get) runs in a process of its own, so billing's real client re-fetches every
 * notified payment over HTTP. Each notification is for a different payment of 1.00 ₽ (100 credits);
 * after sending it the bench polls that user's profile until the credits have grown: every 20 ms, or
 * every tenth of the time waited so far once that is longer (so the error stays under 10 % while the
 * polling itself does not load the gateway and auth enough to distort the figures on a small machine).
 * Notifications are sent open-loop on a fixed schedule, whatever the answers take. The reference for
 * the end-to-end latency is the webhook's own answer time, measured on the same notifications.
 * --smoke: 10 notifications a second for one second, 5 users.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bundleMains } from './lib/bundle.mjs';
import { BENCH_QUEUE_TYPE, databaseUrl, dropDatabases, requireServers, servers } from './lib/infra.mjs';
import { call } from './lib/load.mjs';
import { benchArgs } from './lib/options.mjs';
import { freePorts } from './lib/ports.mjs';
import { cpuMs, onInterrupt, processGroup, waitForReady } from './lib/processes.mjs';
import { envName, local, SERVICES, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { percentiles } from './lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const SHOP_ID = '100500';
const SECRET_KEY = 'bench_secret_key';
const POLL_MS = 20;
/** A balance not visible after this long counts as lost (and the run as failed). */
const GIVE_UP_MS = 30_000;

if (process.argv[2] === '--fake-yookassa') runFakeYookassa();
else await main();

// ─── the orchestrator ──────────────────────────────────────────────────────────────────────────

async function main() {
  const values = benchArgs(
    {
      rate: { type: 'string', default: '50' },
      duration: { type: 'string', default: '10' },
      users: { type: 'string', default: '100' },
    },
    { rate: '10', duration: '1', users: '5' },
  );
  const rate = Number(values.rate);
  const total = Math.round(rate * Number(values.duration));
  const users = Math.min(Number(values.users), total);

  await requireServers('postgres', 'amqp', 'redis');
  const group = processGroup();
  const run = randomUUID().slice(0, 8);
  const databases = SERVICES.map((name) => databaseUrl(`bench_${name.replace('-', '_')}_${run}`));
  onInterrupt(() => dropDatabases(databases));
  let failed = true;
  try {
    const yookassa = await startFakeYookassa(group);
    const bundles = await bundleMains('billing', ['gateway', ...SERVICES]);
    const names = ['gateway', ...SERVICES];
    const ports = Object.fromEntries((await freePorts(names.length)).map((port, i) => [names[i], port]));
    const urlOf = (name) => local(ports[name]);
    const env = {
      ACCESS_LOG: 'false',
      SITE_URL: urlOf('gateway'),
      ADMIN_EMAIL: `admin-${run}@example.com`,
      ADMIN_PASSWORD: 'bench-admin-password',
      ARGON2_MEMORY_KIB: '8192',
      ARGON2_TIME_COST: '1',
      RATE_LIMIT_REGISTER_POINTS: '100000',
      YOOKASSA_API_URL: yookassa.url,
      YOOKASSA_SHOP_ID: SHOP_ID,
      YOOKASSA_SECRET_KEY: SECRET_KEY,
      // The notifications come from this machine, not from YooKassa's published addresses.
      YOOKASSA_TRUSTED_IPS: '127.0.0.1,::1',
      AMQP_URL: servers.amqp,
      AMQP_QUEUE_TYPE: BENCH_QUEUE_TYPE,
      AMQP_EXCHANGE: `bench.billing.${run}`,
      REDIS_URL: servers.redis,
      REDIS_KEY_PREFIX: `bench-${run}:`,
      ...Object.fromEntries(SERVICES.map((name, i) => [`${envName(name)}_DATABASE_URL`, databases[i]])),
      ...Object.fromEntries(SERVICES.map((name) => [`${envName(name)}_URL`, urlOf(name)])),
    };
    // Billing first: its queue must exist before auth announces the admin; the gateway last.
    const processes = [];
    for (const name of ['billing', 'auth', 'content', 'chat-history', 'metrics']) {
      const { child } = await startService(group, name, bundles[name], { ...env, PORT: String(ports[name]) });
      processes.push(child);
    }
    const gateway = await startGateway(group, {
      script: bundles.gateway,
      upstreamOf: urlOf,
      env,
      port: ports.gateway,
    });
    processes.push(gateway.child);
    const site = gateway.url;
    console.log(
      `billing bench: ${rate} notifications/s for ${values.duration} s (${total}), ${users} users; node ${process.version}; ` +
        'gateway and 5 services in their own processes on PostgreSQL + RabbitMQ + Redis',
    );

    // Arrange: users and their pending top-ups, each already paid at the fake provider. The sign-ups
    // never confirm their e-mail, so they hold no welcome grant and a top-up counts from 0.
    const accounts = await inParallel(users, 8, (i) => register(site, `bench-${run}-${i}@example.com`));
    const perUser = Math.ceil(total / users);
    const payments = [];
    for (let round = 0; round < perUser && payments.length < total; round++) {
      const batch = accounts.slice(0, Math.min(users, total - payments.length));
      const created = await inParallel(batch.length, 8, (i) => topUp(site, batch[i], yookassa, round * 100));
      payments.push(...created);
    }
    await yookassa.succeed(payments.map((payment) => payment.providerId));
    const webhook = `${site}/api/billing/webhooks/yookassa`;

    // Warm-up outside the measurement: one notification, waited for.
    await measureOne(site, webhook, payments.shift());

    const results = [];
    const cpuBefore = processes.map((p) => cpuMs(p.pid));
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
      .map((p, i) => `${p.name} ${((cpuMs(p.pid) - cpuBefore[i]) / results.length).toFixed(2)}`)
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
    const answeredAt = percentiles(answered);
    const visibleAt = percentiles(endToEnd);
    const summary = (at) =>
      ['p50', 'p95', 'p99', 'max'].map((key) => `${key} ${(at[key] ?? NaN).toFixed(1).padStart(7)}`).join('  ');
    console.log(`webhook answered (ms)                 ${summary(answeredAt)}`);
    console.log(`new balance in /api/auth/profile (ms) ${summary(visibleAt)}`);
    console.log(`CPU ms per notification (incl. the profile polls): ${cpuPerNotification}`);
    const pending = await pendingPayments(site, env);
    console.log(
      `provider re-fetches: ${await yookassa.gets()}; balances never visible: ${lost}; payments still pending: ${pending}`,
    );
    failed = errors > 0 || lost > 0 || pending > 0;
    const label = `webhook → new balance visible, ${rate}/s`;
    await writeFigures(
      values.json,
      [
        figure(`${label}: p50`, 'ms', ['visible', visibleAt.p50], ['webhook answered', answeredAt.p50]),
        figure(
          `${label}: p95`,
          'ms',
          ['visible', visibleAt.p95],
          ['webhook answered', answeredAt.p95],
          `${results.length} notifications, ${errors} non-200, ${lost} never visible`,
        ),
      ],
      !failed,
    );
  } finally {
    await group.stopAll();
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
  const login = { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD };
  const { token } = await call(`${site}/api/auth/login`, { method: 'POST', body: login });
  const headers = { authorization: `Bearer ${token}` };
  return (await call(`${site}/api/admin/payments?status=pending&limit=1`, { headers })).total;
}

async function register(site, email) {
  const body = { email, password: 'bench-password' };
  const { token } = await call(`${site}/api/auth/register`, { method: 'POST', body, expect: 201 });
  return { token };
}

/**
 * A 1.00 ₽ top-up (100 credits on Base) on top of the `before` credits; billing may need a moment to
 * learn a brand-new user.
 */
async function topUp(site, account, yookassa, before) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${site}/api/billing/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
      body: JSON.stringify({ amount: '1.00' }),
    });
    if (res.status === 201) {
      const { payment_id: paymentId } = await res.json();
      const providerId = await yookassa.providerIdOf(paymentId);
      return { token: account.token, providerId, expectedCredits: before + 100 };
    }
    if (res.status !== 503 || attempt > 50) throw new Error(`top-up: ${res.status} ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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

async function startFakeYookassa(group) {
  const [port] = await freePorts(1);
  const child = group.node('fake-yookassa', SELF, { PORT: String(port) }, ['--fake-yookassa']);
  const base = local(port);
  await waitForReady(`${base}/_bench/stats`, child);
  const bench = (path, body) => call(`${base}/_bench/${path}`, body === undefined ? {} : { method: 'POST', body });
  return {
    url: `${base}/v3`,
    providerIdOf: async (paymentId) => (await bench(`provider-id?payment_id=${paymentId}`)).id,
    succeed: (ids) => bench('succeed', ids),
    gets: async () => (await bench('stats')).gets,
  };
}
