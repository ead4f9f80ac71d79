/**
 * Message history at scale: 1 000 000 messages across 10 000 users in a database of
 * its own, then GET /api/admin/history through the gateway and straight at the service (the
 * reference: what the gateway adds) for the first page, deep pages, a sort, a userId filter and
 * text filters.
 *
 *   node bench/history.mjs [--messages 1000000] [--users 10000] [--requests 300] [--cases first,deep,…]
 *                          [--reload] [--smoke] [--json FILE]
 *
 * The data is loaded once (INSERT … SELECT generate_series, indexes dropped during the load and
 * rebuilt after) into the database gpt_bench_history on the benchmark's PostgreSQL
 * (BENCH_DATABASE_URL, default the local server) and kept for the next run, unless the set there is
 * of another size or was made by another version of the loader (lib/dataset.mjs); --reload loads it
 * again. --smoke: 10 000 messages and 200 users in a database of their own, 10 requests per case.
 * The service and the gateway run as child processes built by esbuild, as deploy builds them;
 * requests go one at a time, so the figures are latencies, not throughput. --cases picks some cases
 * by key (default: all). Target: p95 < 100 ms for every case; the broad text filter (10 000 matches,
 * each a heap page to visit for the exact total) is shown as a stress case beyond the target.
 *
 * The list is paged by page number, not by keyset: pages below offset 1 000 use a plain OFFSET,
 * deeper pages of the unfiltered list by date start from the hourly message counts (the hour the
 * page begins in) and skip only within that hour. Keyset pagination serves the CSV export alone, so
 * the deep page is read against the first page.
 */
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundleMains } from './lib/bundle.mjs';
import { openDataset } from './lib/dataset.mjs';
import { serverVersion, withClient } from './lib/infra.mjs';
import { call, sequential } from './lib/load.mjs';
import { benchArgs, datasetOptions, pickCases, targetVerdict } from './lib/options.mjs';
import { ROOT, withProcesses } from './lib/processes.mjs';
import { signToken, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns, percentiles } from './lib/stats.mjs';

const TARGET_P95_MS = 100;
const WARMUP_REQUESTS = 20;
/** Every RARE_EVERY-th message asks about RARE_WORD: a selective text filter (0.1 % of rows). */
const RARE_WORD = 'kubernetes';
const RARE_EVERY = 1000;
/** Every COMMON_EVERY-th message mentions COMMON_WORD: a broad text filter (1 % of rows). */
const COMMON_WORD = 'борщ';
const COMMON_EVERY = 100;
/** Distinct questions and answers the messages are made of (at most one per ten messages). */
const POOL = 20_000;
/** The data set's generator: bump it whenever load() changes what it generates (lib/dataset.mjs). */
const LOADER_VERSION = 1;
/** Pseudo-words from Cyrillic syllables: word n of 8 000, drawn with a skew so a few are common. */
const WORD_FUNCTIONS = `
  create or replace function pg_temp.word(n int) returns text language sql immutable as $$
    select substr(s, 1 + 2 * (n % 20), 2) || substr(s, 1 + 2 * ((n / 20) % 20), 2) || substr(s, 1 + 2 * ((n / 400) % 20), 2)
    from (select 'каромитонлевизабушегодупифалюжоныхацесе'::text as s) syllables
  $$;
  create or replace function pg_temp.words(k int) returns text language sql volatile as $$
    select string_agg(pg_temp.word(floor(8000 * random() ^ 2)::int), ' ') from generate_series(1, k)
  $$;`;

const values = benchArgs(
  {
    messages: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '300' },
    ...datasetOptions,
  },
  { messages: '10000', users: '200', requests: '10' },
);
const MESSAGES = Number(values.messages);
const USERS = Number(values.users);
const REQUESTS = Number(values.requests);
const QUESTIONS = Math.min(POOL, Math.ceil(MESSAGES / 10));

const dataset = await openDataset(
  'history',
  'chat-history',
  { loader: LOADER_VERSION, messages: MESSAGES, users: USERS },
  values,
);
const database = dataset.url;
try {
  await withProcesses(main);
} finally {
  await dataset.close();
}

async function main(group) {
  const bundles = await bundleMains('history', ['chat-history', 'gateway']);
  // The service migrates its database at start: the schema under test is the real one.
  const service = await startService(group, 'chat-history', bundles['chat-history'], {
    CHAT_HISTORY_DATABASE_URL: database,
    DATA_DIR: path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'history', 'data'),
  });
  if (dataset.stale) {
    await load();
    await dataset.loaded();
  }
  const gateway = await startGateway(group, { script: bundles.gateway, upstreamOf: () => service.url });

  const headers = { authorization: `Bearer ${signToken('admin', 1)}` };
  const deepPage = Math.floor(MESSAGES / 10 / 2);
  const randomInt = (n) => Math.floor(Math.random() * n);
  const all = [
    ['first', 'first page', () => '/api/admin/history?page=1&pageSize=10'],
    [
      'deep',
      `deep page (${deepPage}, offset ${(deepPage - 1) * 10})`,
      () => `/api/admin/history?page=${deepPage}&pageSize=10`,
    ],
    ['last', `last page (${MESSAGES / 10})`, () => `/api/admin/history?page=${MESSAGES / 10}&pageSize=10`],
    ['random', 'random page', () => `/api/admin/history?page=${1 + randomInt(MESSAGES / 10)}&pageSize=10`],
    [
      'cost',
      'sorted by cost, most expensive first',
      () => '/api/admin/history?page=1&pageSize=10&sortField=cost&sortOrder=-1',
    ],
    ['user', 'userId filter (random user)', () => `/api/admin/history?page=1&limit=10&userId=${1 + randomInt(USERS)}`],
    ['text', `text filter "${RARE_WORD}" (0.1 %)`, () => `/api/admin/history?page=1&limit=10&message=${RARE_WORD}`],
    [
      'text-common',
      `text filter "${COMMON_WORD}" (1 %, stress)`,
      () => `/api/admin/history?page=1&limit=10&message=${encodeURIComponent(COMMON_WORD)}`,
      'stress',
    ],
  ];
  const cases = pickCases(all, values.cases);

  console.log(
    `history bench: ${MESSAGES.toLocaleString('en')} messages, ${USERS.toLocaleString('en')} users, ` +
      `${REQUESTS} sequential requests per case after ${WARMUP_REQUESTS} warm-up; node ${process.version}; ` +
      `${await serverVersion()}; ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)} at start`,
  );
  const line = columns([
    ['case', 44],
    ['via', 9],
    ['total', -9],
    ['p50 ms', -9],
    ['p95 ms', -9],
    ['p99 ms', -9],
    ['  verdict', 0],
  ]);
  console.log(`\n${line.header}`);
  let met = true;
  const results = {};
  for (const [key, name, pathOf, kind] of cases) {
    for (const [via, base] of [
      ['gateway', gateway.url],
      ['direct', service.url],
    ]) {
      const result = await measure(base, pathOf, headers);
      results[`${key} ${via}`] = result;
      const ok = result.p95 < TARGET_P95_MS;
      if (via === 'gateway' && kind !== 'stress') met &&= ok;
      console.log(
        line([
          name,
          via,
          result.total,
          result.p50.toFixed(1),
          result.p95.toFixed(1),
          result.p99.toFixed(1),
          `  ${ok ? 'ok' : kind === 'stress' ? 'over (stress case, not a target)' : 'MISSED'}`,
        ]),
      );
    }
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
  const verdict = targetVerdict(met);
  console.log(
    `\ntarget: p95 < ${TARGET_P95_MS} ms through the gateway for every case but the stress one → ${verdict.text}`,
  );
  await writeFigures(values.json, figures(cases, results, deepPage), verdict.ok);
  process.exitCode = verdict.ok ? 0 : 1;
}

/** Each case's p95 through the gateway against direct; the deep page's p50 and p95 also against the first page's. */
function figures(cases, results, deepPage) {
  const at = `${(MESSAGES / 1e6).toLocaleString('en')} M messages`;
  const list = cases.map(([key, name, , kind]) =>
    figure(
      `${name}, ${at}: p95`,
      'ms',
      ['gateway', results[`${key} gateway`].p95],
      ['direct', results[`${key} direct`].p95],
      kind === 'stress' ? 'stress case' : `target < ${TARGET_P95_MS} ms through the gateway`,
    ),
  );
  if (results['first direct'] && results['deep direct']) {
    for (const key of ['p50', 'p95']) {
      list.push(
        figure(
          `deep page ${deepPage} vs first page, ${at}: ${key}`,
          'ms',
          ['deep', results['deep direct'][key]],
          ['first', results['first direct'][key]],
          'direct; no keyset: a deep page starts from the hourly counts',
        ),
      );
    }
  }
  return list;
}

/** `REQUESTS` sequential requests after a warm-up: p50 / p95 / p99 and the total the list reported. */
async function measure(base, pathOf, headers) {
  const once = () => call(base + pathOf(), { headers });
  await sequential(WARMUP_REQUESTS, once);
  const { times, last } = await sequential(REQUESTS, once);
  return { total: last.total, ...percentiles(times) };
}

// ─── data ──────────────────────────────────────────────────────────────────────────────────────

async function load() {
  await withClient(database, async (client) => {
    const step = async (label, sql) => {
      const started = performance.now();
      await client.query(sql);
      console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    };
    console.log(`loading ${MESSAGES.toLocaleString('en')} messages into ${new URL(database).pathname.slice(1)}…`);
    const { rows: indexes } = await client.query(
      `select indexname, indexdef from pg_indexes where tablename = 'messages' and indexname <> 'messages_pkey'`,
    );
    for (const { indexname } of indexes) await client.query(`drop index ${indexname}`);
    await client.query(WORD_FUNCTIONS);
    // Trigram indexes over a million rows build several times faster with room to sort in.
    await client.query(`set maintenance_work_mem = '256MB'`);
    await step(
      `${QUESTIONS} questions and answers`,
      `create temp table questions as select k, pg_temp.words(10) as t from generate_series(0, ${QUESTIONS - 1}) as k;
       create temp table answers as select k, pg_temp.words(24) as t from generate_series(0, ${QUESTIONS - 1}) as k;`,
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
            1 + (i % 5) as mi, floor(random() * ${QUESTIONS})::int as qk, floor(random() * ${QUESTIONS})::int as ak
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
