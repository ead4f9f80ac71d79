/**
 * Every public read a page or the bot makes on each visit or message, in both ways the product runs,
 * each against the gateway's own ceiling in the same run: the same gateway answering `/robots.txt`
 * (no upstream, no database), measured before and after the reads (their mean req/s; the larger p99).
 *
 *   node bench/reads.mjs [--duration 8] [--warmup 2] [--connections 50] [--modes multi,embedded] [--probe] [--smoke] [--json FILE]
 *
 * multi: the gateway and each service in its own process on PostgreSQL, RabbitMQ and Redis (as in
 * production). embedded: `npm start`'s all-in-one process on a fresh DATA_DIR (PGlite, in-process
 * bus), whose memory (RSS) is also read after start and after the load. Targets: each read ≥ 0.5×
 * the ceiling with p99 ≤ 2× the ceiling's p99, in both modes; embedded RSS ≤ 450 MB after the load.
 * --probe loads lib/tail-probe.mjs into the embedded process and prints, after each read, how long
 * its event loop was held up, its GC pauses and how busy its PGlite session was during that read.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { bundle, bundleMains, requireWebBuild } from './lib/bundle.mjs';
import { BENCH_QUEUE_TYPE, databaseUrl, dropDatabases, requireServers, servers } from './lib/infra.mjs';
import { call, cannon } from './lib/load.mjs';
import { benchArgs, targetVerdict } from './lib/options.mjs';
import { freePorts } from './lib/ports.mjs';
import { onInterrupt, ROOT, rssMb, withProcesses } from './lib/processes.mjs';
import { BOT_API_KEY, envName, local, SERVICES, startEmbedded, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns } from './lib/stats.mjs';

const values = benchArgs(
  {
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    modes: { type: 'string', default: 'multi,embedded' },
    probe: { type: 'boolean', default: false },
  },
  { duration: '1', warmup: '1' },
);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const TARGET_RATIO = 0.5;
const TARGET_P99_FACTOR = 2;
const TARGET_RSS_LOAD_MB = 450;
const CEILING = '/robots.txt';

/** [name, path, needs]: needs 'bot' (the bot's key) or 'user' (a user's token), else public. */
const READS = [
  ['GET /api/articles', '/api/articles?page=1&limit=12'],
  ['GET /api/articles/{slug}', '/api/articles/{slug}'],
  ['GET /api/article_categories/select', '/api/article_categories/select'],
  ['GET /api/tariffs', '/api/tariffs'],
  ['GET /api/welcome_offer', '/api/welcome_offer'],
  ['GET /api/bot/models', '/api/bot/models', 'bot'],
  ['GET /api/bot/settings', '/api/bot/settings', 'bot'],
  ['GET /api/auth/profile', '/api/auth/profile', 'user'],
];

/** A user's token and an article's slug on the product at `site` (the admin publishes one article). */
async function arrange(site, admin) {
  const { token: adminToken } = await call(`${site}/api/auth/login`, {
    method: 'POST',
    body: admin,
  });
  const headers = { authorization: `Bearer ${adminToken}` };
  const slug = `bench-reads-${randomUUID().slice(0, 8)}`;
  await call(`${site}/api/admin/articles`, {
    method: 'POST',
    headers,
    body: {
      title: 'Как выбрать модель',
      slug,
      content: '<p>Текст статьи для замера.</p>',
      status: 'published',
    },
    expect: 201,
  });
  const body = {
    email: `reader-${randomUUID().slice(0, 8)}@example.com`,
    password: 'bench-password',
  };
  const { token } = await call(`${site}/api/auth/register`, {
    method: 'POST',
    body,
    expect: 201,
  });
  return { slug, userHeaders: { authorization: `Bearer ${token}` } };
}

/**
 * The ceiling (before and after) and every read at `site`: { ceiling, reads: [{ name, rps, p99 }] }.
 * `probed`, when given, is the process running lib/tail-probe.mjs: told to count each measured run.
 */
async function measureReads(site, { slug, userHeaders }, probed) {
  const headersOf = { bot: { 'x-bot-key': BOT_API_KEY }, user: userHeaders };
  const run = async (pathname, headers = {}) => {
    const target = { url: site + pathname.replace('{slug}', slug), headers };
    await cannon(target, { connections: CONNECTIONS, duration: WARMUP });
    if (probed) process.kill(probed.pid, 'SIGUSR2');
    const result = await cannon(target, {
      connections: CONNECTIONS,
      duration: DURATION,
    });
    if (probed) {
      console.error(`${pathname}: p99 ${result.p99} ms, ${result.rps.toFixed(0)} req/s`);
      process.kill(probed.pid, 'SIGUSR2');
    }
    if (result.failed > 0) throw new Error(`${pathname}: ${result.failed} requests failed`);
    return result;
  };
  const before = await run(CEILING);
  const reads = [];
  for (const [name, pathname, needs] of READS) reads.push({ name, ...(await run(pathname, headersOf[needs])) });
  const after = await run(CEILING);
  const ceiling = {
    name: `GET ${CEILING} (ceiling)`,
    rps: (before.rps + after.rps) / 2,
    p99: Math.max(before.p99, after.p99),
  };
  return { ceiling, reads };
}

/** The gateway and every service in its own process on PostgreSQL, RabbitMQ and Redis. */
async function multiProcess(group) {
  await requireServers('postgres', 'amqp', 'redis');
  const run = randomUUID().slice(0, 8);
  const databases = SERVICES.map((name) => databaseUrl(`bench_reads_${name.replace('-', '_')}_${run}`));
  onInterrupt(() => dropDatabases(databases));
  try {
    const bundles = await bundleMains('reads', ['gateway', ...SERVICES]);
    const names = ['gateway', ...SERVICES];
    const ports = Object.fromEntries((await freePorts(names.length)).map((port, i) => [names[i], port]));
    const admin = {
      email: `admin-${run}@example.com`,
      password: 'bench-admin-password',
    };
    const env = {
      ACCESS_LOG: 'false',
      SITE_URL: local(ports.gateway),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ARGON2_MEMORY_KIB: '8192',
      ARGON2_TIME_COST: '1',
      AMQP_URL: servers.amqp,
      AMQP_QUEUE_TYPE: BENCH_QUEUE_TYPE,
      AMQP_EXCHANGE: `bench.reads.${run}`,
      REDIS_URL: servers.redis,
      REDIS_KEY_PREFIX: `bench-${run}:`,
      YOOKASSA_SHOP_ID: 'bench',
      YOOKASSA_SECRET_KEY: 'bench',
      YOOKASSA_API_URL: 'http://127.0.0.1:9',
      ...Object.fromEntries(SERVICES.map((name, i) => [`${envName(name)}_DATABASE_URL`, databases[i]])),
      ...Object.fromEntries(SERVICES.map((name) => [`${envName(name)}_URL`, local(ports[name])])),
    };
    // Billing first: its queue must exist before auth announces the admin; the gateway last.
    for (const name of ['billing', 'auth', 'content', 'chat-history', 'metrics']) {
      await startService(group, name, bundles[name], {
        ...env,
        PORT: String(ports[name]),
      });
    }
    const gateway = await startGateway(group, {
      script: bundles.gateway,
      upstreamOf: (name) => local(ports[name]),
      env,
      port: ports.gateway,
    });
    return await measureReads(gateway.url, await arrange(gateway.url, admin));
  } finally {
    await group.stopAll();
    await dropDatabases(databases);
  }
}

/** `npm start`'s embedded process on a fresh DATA_DIR; also its RSS after start and after the load. */
async function embedded(group) {
  const bundles = await bundle('reads', { embedded: 'deploy/src/embedded.ts' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gpt-bench-reads-'));
  try {
    const [port] = await freePorts(1);
    const admin = {
      email: 'admin@example.com',
      password: 'bench-admin-password',
    };
    const product = await startEmbedded(group, {
      bundle: bundles.embedded,
      port,
      dataDir,
      env: { ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
      nodeFlags: values.probe ? ['--import', path.join(ROOT, 'bench', 'lib', 'tail-probe.mjs')] : [],
    });
    const rssStart = rssMb(product.pid);
    const measured = await measureReads(local(port), await arrange(local(port), admin), values.probe && product);
    return { ...measured, rssStart, rssLoad: rssMb(product.pid) };
  } finally {
    await group.stopAll();
    await rm(dataDir, { recursive: true, force: true });
  }
}

requireWebBuild();
const modes = values.modes.split(',');
const results = {};
for (const mode of modes) {
  const started = loadavg()[0];
  results[mode] = await withProcesses((group) => (mode === 'embedded' ? embedded(group) : multiProcess(group)));
  results[mode].load = [started, loadavg()[0]];
}

const line = columns([
  ['read', 36],
  ...modes.flatMap((mode) => [
    [`${mode}: req/s`, -16],
    ['× ceiling', -10],
    ['p99 (ceiling)', -15],
  ]),
]);
console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s each; ceiling: the same gateway answering ${CEILING}; load average at ` +
    modes
      .map((mode) => `${mode}'s start ${results[mode].load[0].toFixed(2)}, end ${results[mode].load[1].toFixed(2)}`)
      .join('; ') +
    `\n${line.header}`,
);
let met = true;
const figures = [];
const cellsOf = (mode, read) => {
  const { ceiling } = results[mode];
  return [read.rps.toFixed(0), (read.rps / ceiling.rps).toFixed(2), `${read.p99} (${ceiling.p99}) ms`];
};
console.log(line([`GET ${CEILING} (ceiling)`, ...modes.flatMap((mode) => cellsOf(mode, results[mode].ceiling))]));
for (const [i, [name]] of READS.entries()) {
  console.log(line([name, ...modes.flatMap((mode) => cellsOf(mode, results[mode].reads[i]))]));
  for (const mode of modes) {
    const { ceiling, reads } = results[mode];
    const read = reads[i];
    const ok = read.rps >= TARGET_RATIO * ceiling.rps && read.p99 <= TARGET_P99_FACTOR * ceiling.p99;
    met &&= ok;
    figures.push(
      figure(
        `${mode}: ${name}, ${CONNECTIONS} connections: req/s vs the gateway's ceiling`,
        'req/s',
        ['read', read.rps],
        ['ceiling', ceiling.rps],
        `p99 ${read.p99} ms, ceiling's ${ceiling.p99} ms; target ≥ ${TARGET_RATIO}× and p99 ≤ ${TARGET_P99_FACTOR}× the ceiling's: ${targetVerdict(ok).text}`,
      ),
    );
  }
}
if (results.embedded) {
  const { rssStart, rssLoad } = results.embedded;
  const ok = rssLoad <= TARGET_RSS_LOAD_MB;
  met &&= ok;
  console.log(
    `embedded RSS: ${rssStart.toFixed(0)} MB after start, ${rssLoad.toFixed(0)} MB after the load (target ≤ ${TARGET_RSS_LOAD_MB} MB)`,
  );
  figures.push(
    figure(
      'embedded: memory after the reads (RSS)',
      'MB',
      ['embedded', rssLoad],
      ['target', TARGET_RSS_LOAD_MB],
      `${rssStart.toFixed(0)} MB after start; target ≤ ${TARGET_RSS_LOAD_MB} MB: ${targetVerdict(ok).text}`,
    ),
  );
}
const verdict = targetVerdict(met);
console.log(
  `targets: every read ≥ ${TARGET_RATIO}× the ceiling with p99 ≤ ${TARGET_P99_FACTOR}× its p99, embedded RSS ≤ ${TARGET_RSS_LOAD_MB} MB after the load → ${verdict.text}`,
);
await writeFigures(values.json, figures, verdict.ok);
process.exitCode = verdict.ok ? 0 : 1;
