/**
 * Message history at scale (issue 6): 1 000 000 messages across 10 000 users in a database of
 * its own, then GET /api/admin/history through the gateway (and straight at the service, to
 * show what the gateway adds) for the first page, a deep page, a userId filter and a text filter.
 *
 *   node bench/history.mjs [--messages 1000000] [--users 10000] [--requests 300] [--reload]
 *
 * The data is loaded once (INSERT … SELECT generate_series, indexes dropped during the load and
 * rebuilt after) and kept for the next run; --reload loads it again. PostgreSQL comes from
 * BENCH_DATABASE_URL (default: the local server, database gpt_bench_history). The service and the
 * gateway run as child processes built by esbuild, as deploy builds them; requests go one at a
 * time, so the figures are latencies, not throughput. Target: p95 < 100 ms for every case; the
 * broad text filter (10 000 matches, each a heap page to visit for the exact total) is shown as a
 * stress case beyond the target.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { freePorts, waitForPort } from './lib/ports.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef-0123456789abcdef';
const BOT_API_KEY = 'bench-bot-key-0123456789';
const TARGET_P95_MS = 100;
/** Every RARE_EVERY-th message asks about RARE_WORD: a selective text filter (0.1 % of rows). */
const RARE_WORD = 'kubernetes';
const RARE_EVERY = 1000;
/** Every COMMON_EVERY-th message mentions COMMON_WORD: a broad text filter (1 % of rows). */
const COMMON_WORD = 'борщ';
const COMMON_EVERY = 100;
/** Distinct questions and answers the messages are made of. */
const POOL = 20_000;

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '300' },
    reload: { type: 'boolean', default: false },
  },
});
const MESSAGES = Number(values.messages);
const USERS = Number(values.users);
const REQUESTS = Number(values.requests);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpt_bench_history';

const children = [];

async function main() {
  const [servicePort, gatewayPort] = await freePorts(2);
  const [serviceBundle, gatewayBundle] = await Promise.all([
    bundle('services/chat-history/src/main.ts', 'chat-history.mjs'),
    bundle('gateway/src/main.ts', 'gateway.mjs'),
  ]);

  const fresh = values.reload || (await messageCount()) !== MESSAGES;
  if (fresh) await recreateDatabase();
  // The service migrates its database at start: the schema under test is the real one.
  children.push(
    startChild('chat-history', serviceBundle, {
      PORT: String(servicePort),
      CHAT_HISTORY_DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'history', 'data'),
    }),
  );
  await waitForPort(servicePort);
  if (fresh) await load();

  const service = `http://127.0.0.1:${servicePort}`;
  children.push(
    startChild('gateway', gatewayBundle, {
      PORT: String(gatewayPort),
      AUTH_URL: service,
      CONTENT_URL: service,
      BILLING_URL: service,
      CHAT_HISTORY_URL: service,
      METRICS_URL: service,
      WEB_DIR: path.join(ROOT, 'web', 'dist'),
    }),
  );
  await waitForPort(gatewayPort);
  const gateway = `http://127.0.0.1:${gatewayPort}`;

  const token = jwt.sign({ role: 'admin', ver: 0 }, JWT_SECRET, { algorithm: 'HS256', subject: '1', expiresIn: '1h' });
  const headers = { authorization: `Bearer ${token}` };
  const deepPage = Math.floor(MESSAGES / 10 / 2);
  const cases = [
    ['first page', () => '/api/admin/history?page=1&pageSize=10'],
    [`deep page (${deepPage}, offset ${(deepPage - 1) * 10})`, () => `/api/admin/history?page=${deepPage}&pageSize=10`],
    [`last page (${MESSAGES / 10})`, () => `/api/admin/history?page=${MESSAGES / 10}&pageSize=10`],
    ['random page', () => `/api/admin/history?page=${1 + randomInt(MESSAGES / 10)}&pageSize=10`],
    ['sorted by cost, most expensive first', () => '/api/admin/history?page=1&pageSize=10&sortField=cost&sortOrder=-1'],
    ['userId filter (random user)', () => `/api/admin/history?page=1&limit=10&userId=${1 + randomInt(USERS)}`],
    [`text filter "${RARE_WORD}" (0.1 %)`, () => `/api/admin/history?page=1&limit=10&message=${RARE_WORD}`],
    [
      `text filter "${COMMON_WORD}" (1 %, stress)`,
      () => `/api/admin/history?page=1&limit=10&message=${encodeURIComponent(COMMON_WORD)}`,
      'stress',
    ],
  ];

  console.log(
    `history bench: ${MESSAGES.toLocaleString('en')} messages, ${USERS.toLocaleString('en')} users, ` +
      `${REQUESTS} sequential requests per case after 20 warm-up; node ${process.version}; ${await serverVersion()}; ` +
      `${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)} at start`,
  );
  console.log(
    `\n${pad('case', 44)}${pad('via', 9)}${lpad('total', 9)}${lpad('p50 ms', 9)}${lpad('p95 ms', 9)}${lpad('p99 ms', 9)}  verdict`,
  );
  let met = true;
  for (const [name, pathOf, kind] of cases) {
    for (const [via, base] of [
      ['gateway', gateway],
      ['service', service],
    ]) {
      const result = await measure(base, pathOf, headers);
      const ok = result.p95 < TARGET_P95_MS;
      if (via === 'gateway' && kind !== 'stress') met &&= ok;
      console.log(
        `${pad(name, 44)}${pad(via, 9)}${lpad(String(result.total), 9)}${lpad(result.p50.toFixed(1), 9)}` +
          `${lpad(result.p95.toFixed(1), 9)}${lpad(result.p99.toFixed(1), 9)}  ${ok ? 'ok' : kind === 'stress' ? 'over (stress case, not a target)' : 'MISSED'}`,
      );
    }
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
  console.log(
    `\ntarget: p95 < ${TARGET_P95_MS} ms through the gateway for every case but the stress one → ${met ? 'met' : 'NOT met'}`,
  );
  process.exitCode = met ? 0 : 1;
}

async function measure(base, pathOf, headers) {
  const once = async () => {
    const url = base + pathOf();
    const started = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.json();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    return { ms, total: body.total };
  };
  for (let i = 0; i < 20; i++) await once();
  const times = [];
  let total = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const result = await once();
    times.push(result.ms);
    total = result.total;
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { total, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

// ─── data ──────────────────────────────────────────────────────────────────────────────────────

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function messageCount() {
  try {
    return await withClient(databaseUrl, async (client) => {
      const { rows } = await client.query('select count(*)::int as n from messages');
      return rows[0].n;
    });
  } catch {
    return -1;
  }
}

async function recreateDatabase() {
  const admin = new URL(databaseUrl);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  await withClient(admin.toString(), async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
}

/** Pseudo-words from Cyrillic syllables: word n of 8 000, drawn with a skew so a few are common. */
const WORDS = `
  create or replace function pg_temp.word(n int) returns text language sql immutable as $$
    select substr(s, 1 + 2 * (n % 20), 2) || substr(s, 1 + 2 * ((n / 20) % 20), 2) || substr(s, 1 + 2 * ((n / 400) % 20), 2)
    from (select 'каромитонлевизабушегодупифалюжоныхацесе'::text as s) syllables
  $$;
  create or replace function pg_temp.words(k int) returns text language sql volatile as $$
    select string_agg(pg_temp.word(floor(8000 * random() ^ 2)::int), ' ') from generate_series(1, k)
  $$;`;

async function load() {
  await withClient(databaseUrl, async (client) => {
    const step = async (label, sql) => {
      const started = performance.now();
      await client.query(sql);
      console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    };
    console.log(`loading ${MESSAGES.toLocaleString('en')} messages into ${new URL(databaseUrl).pathname.slice(1)}…`);
    const { rows: indexes } = await client.query(
      `select indexname, indexdef from pg_indexes where tablename = 'messages' and indexname <> 'messages_pkey'`,
    );
    for (const { indexname } of indexes) await client.query(`drop index ${indexname}`);
    await client.query(WORDS);
    // Trigram indexes over a million rows build several times faster with room to sort in.
    await client.query(`set maintenance_work_mem = '256MB'`);
    await step(
      `${POOL} questions and answers`,
      `create temp table questions as select k, pg_temp.words(10) as t from generate_series(0, ${POOL - 1}) as k;
       create temp table answers as select k, pg_temp.words(24) as t from generate_series(0, ${POOL - 1}) as k;`,
    );
    await step(
      `${USERS} users`,
      `insert into directory_users (user_id, telegram_id, username, telegram_username, first_name, last_name, version)
       select i, 1000000000 + i, 'user_' || i, 'tg_' || i, 'Имя' || (i % 97), 'Фамилия' || (i % 89), 0
       from generate_series(1, ${USERS}) as i`,
    );
    await client.query(`
      insert into ai_models (model, input_price_per_1m, output_price_per_1m) values
        ('gpt-4o', 2.5, 10), ('gpt-4o-mini', 0.15, 0.6), ('o3-mini', 1.1, 4.4), ('gpt-4.1', 2, 8), ('gpt-4.1-nano', 0.1, 0.4)
      on conflict do nothing`);
    const chunk = 100_000;
    const started = performance.now();
    for (let from = 1; from <= MESSAGES; from += chunk) {
      const to = Math.min(MESSAGES, from + chunk - 1);
      await client.query(`
        insert into messages (user_id, telegram_id, model, status, user_message, bot_response, error_message,
          input_tokens, output_tokens, input_price_per_1m, output_price_per_1m, input_cost, output_cost, total_cost, cost, created_at)
        select u, 1000000000 + u, m.model, case when i % 50 = 0 then 'error' else 'success' end,
          case when i % ${RARE_EVERY} = 0 then 'Как настроить ${RARE_WORD}? ' else '' end
            || case when i % ${COMMON_EVERY} = 7 then 'Рецепт: ${COMMON_WORD}. ' else '' end || q.t,
          case when i % 50 = 0 then null else a.t end,
          case when i % 50 = 0 then 'Таймаут модели' end,
          it, ot, m.input_price_per_1m, m.output_price_per_1m,
          it * m.input_price_per_1m / 1000000, ot * m.output_price_per_1m / 1000000,
          (it * m.input_price_per_1m + ot * m.output_price_per_1m) / 1000000,
          ceil((it * m.input_price_per_1m + ot * m.output_price_per_1m) / 1000000 * 19000),
          now() - interval '30 days' * (1 - i::numeric / ${MESSAGES})
        from (
          select i, 1 + floor(random() * ${USERS})::int as u, (random() * 2000)::int as it, (random() * 1000)::int as ot,
            1 + (i % 5) as mi, floor(random() * ${POOL})::int as qk, floor(random() * ${POOL})::int as ak
          from generate_series(${from}, ${to}) as i
        ) g
        join questions q on q.k = g.qk
        join answers a on a.k = g.ak
        join (select row_number() over (order by id) as mi, * from ai_models) m using (mi)
        order by i`);
      process.stdout.write(
        `\r  messages: ${to.toLocaleString('en')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    process.stdout.write('\n');
    for (const { indexname, indexdef } of indexes) await step(`index ${indexname}`, indexdef);
    await step('vacuum analyze', 'vacuum analyze messages, message_counts, message_hours, directory_users, ai_models');
  });
}

async function serverVersion() {
  return withClient(
    databaseUrl,
    async (client) => (await client.query('show server_version')).rows[0].server_version,
  ).then((v) => `PostgreSQL ${v}`);
}

// ─── processes ─────────────────────────────────────────────────────────────────────────────────

async function bundle(entry, name) {
  // Inside node_modules so the external packages resolve from the repository's node_modules.
  const outfile = path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'history', name);
  await mkdir(path.dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, entry)],
    outfile,
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
  return outfile;
}

function startChild(name, script, env) {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      BOT_API_KEY,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.name = name;
  child.on('exit', (code, signal) => {
    if (!child.stopping) console.error(`${name} exited unexpectedly (${code ?? signal})`);
  });
  return child;
}

async function stopAll() {
  for (const child of children.splice(0).reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.stopping = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

function randomInt(n) {
  return Math.floor(Math.random() * n);
}

function pad(text, width) {
  return text.padEnd(width);
}

function lpad(text, width) {
  return text.padStart(width);
}

// Last, so every declaration above is initialised before it runs.
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
try {
  await main();
} finally {
  await stopAll();
}
