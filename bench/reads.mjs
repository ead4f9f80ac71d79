/**
 * Every public read a page or the bot makes on each visit or message, in both ways the product runs,
 * each against the gateway's own ceiling in the same run: the same gateway answering `/robots.txt`
 * (no upstream, no database), measured before and after the reads (their mean req/s; the larger p99).
 *
 *   node bench/reads.mjs [--duration 8] [--warmup 2] [--connections 50] [--modes multi,embedded] [--reads tariffs,profile]
 *                        [--probe] [--cpu-prof DIR] [--smoke] [--json FILE]
 *
 * multi: the gateway and each service in its own process on PostgreSQL, RabbitMQ and Redis (as in
 * production). embedded: `npm start`'s all-in-one process on a fresh DATA_DIR (PGlite, in-process
 * bus), whose memory (RSS) is also read after start and after the load. Targets: each read ≥ 0.5×
 * the ceiling with p99 ≤ 2× the ceiling's p99, in both modes; embedded RSS ≤ 450 MB after the load.
 * --probe loads lib/tail-probe.mjs into the embedded process and prints, after each read, how long
 * its event loop was held up, its GC pauses and how busy its PGlite session was during that read.
 * Beside every run it prints the CPU time per request (from /proc, so it holds on a busy machine where
 * req/s swings) of the gateway and of the service that answers (multi), or of the one process
 * (embedded), and of autocannon (this process), which shares the two cores with them. --reads runs only the reads whose path contains one of the words (the ceiling always
 * runs); --cpu-prof DIR loads lib/cpu-profile.mjs into the gateway and the services (multi) or the
 * embedded process and writes a V8 CPU profile of each measured run there, named
 * `<mode>-<read>-<process>.cpuprofile` (`node bench/lib/profile-top.mjs FILE` reads one).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundle, bundleMains, requireWebBuild } from './lib/bundle.mjs';
import { BENCH_QUEUE_TYPE, databaseUrl, dropDatabases, requireServers, servers } from './lib/infra.mjs';
import { call, cannon, warmUp } from './lib/load.mjs';
import { benchArgs, targetVerdict } from './lib/options.mjs';
import { freePorts } from './lib/ports.mjs';
import { cpuMs, onInterrupt, ROOT, rssMb, withProcesses } from './lib/processes.mjs';
import { BOT_API_KEY, envName, local, SERVICES, startEmbedded, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns } from './lib/stats.mjs';

const values = benchArgs(
  {
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    modes: { type: 'string', default: 'multi,embedded' },
    reads: { type: 'string' },
    probe: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
  { duration: '1', warmup: '0' },
);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const TARGET_RATIO = 0.5;
const TARGET_P99_FACTOR = 2;
const TARGET_RSS_LOAD_MB = 450;
const CEILING = '/robots.txt';

/**
 * [name, path, service, needs]: the service answering it (multi), and needs 'bot' (the bot's key)
 * or 'user' (a user's token), else public.
 */
const ALL_READS = [
  ['GET /api/articles', '/api/articles?page=1&limit=12', 'content'],
  ['GET /api/articles/{slug}', '/api/articles/{slug}', 'content'],
  ['GET /api/article_categories/select', '/api/article_categories/select', 'content'],
  ['GET /api/tariffs', '/api/tariffs', 'billing'],
  ['GET /api/welcome_offer', '/api/welcome_offer', 'chat-history'],
  ['GET /api/bot/models', '/api/bot/models', 'chat-history', 'bot'],
  ['GET /api/bot/settings', '/api/bot/settings', 'chat-history', 'bot'],
  ['GET /api/auth/profile', '/api/auth/profile', 'auth', 'user'],
];
const READS = values.reads
  ? ALL_READS.filter(([, pathname]) => values.reads.split(',').some((word) => pathname.includes(word)))
  : ALL_READS;
if (READS.length === 0) throw new Error(`--reads ${values.reads}: no read's path has any of these words`);
const PROFILE_DIR = values['cpu-prof'] && path.resolve(values['cpu-prof']);
/** What a process gets to write CPU profiles (--cpu-prof): the preload, where and under which name. */
const profiled = (name) =>
  PROFILE_DIR
    ? {
        env: { CPU_PROFILE_DIR: PROFILE_DIR, CPU_PROFILE_NAME: name },
        nodeFlags: ['--import', path.join(ROOT, 'bench', 'lib', 'cpu-profile.mjs')],
      }
    : { env: {}, nodeFlags: [] };

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
 * The ceiling (before and after) and every read at `site`: { ceiling, reads: [{ name, rps, p99, cpu }] }.
 * `processes` ({ name: pid }) are the product's: `cpu` is each one's CPU time per request (µs) in the
 * measured run. `signalled` (pids) get SIGUSR2 right before and right after each measured run
 * (lib/tail-probe.mjs, lib/cpu-profile.mjs); a profile each process then writes is renamed after the run.
 */
async function measureReads(site, { slug, userHeaders }, { mode, processes, signalled = [], probe = false }) {
  const headersOf = { bot: { 'x-bot-key': BOT_API_KEY }, user: userHeaders };
  const profiles = Object.fromEntries(Object.keys(processes).map((name) => [name, 0]));
  const signal = () => {
    for (const pid of signalled) process.kill(pid, 'SIGUSR2');
  };
  const keepProfiles = async (label) => {
    for (const name of Object.keys(processes)) {
      profiles[name] += 1;
      const file = path.join(PROFILE_DIR, `${name}.${profiles[name]}.cpuprofile`);
      for (let waited = 0; !existsSync(file) && waited < 10_000; waited += 100) await sleep(100);
      await rename(file, path.join(PROFILE_DIR, `${mode}-${label}-${name}.cpuprofile`));
    }
  };
  const run = async (pathname, headers = {}) => {
    const target = { url: site + pathname.replace('{slug}', slug), headers };
    await warmUp(target, { connections: CONNECTIONS, duration: WARMUP });
    const cpuBefore = Object.values(processes).map(cpuMs);
    const loadBefore = process.cpuUsage();
    signal();
    const result = await cannon(target, {
      connections: CONNECTIONS,
      duration: DURATION,
    });
    signal();
    const load = process.cpuUsage(loadBefore);
    const cpu = Object.fromEntries(
      Object.entries(processes).map(([name, pid], i) => [name, ((cpuMs(pid) - cpuBefore[i]) * 1000) / result.total]),
    );
    cpu.autocannon = (load.user + load.system) / result.total;
    if (probe) console.error(`${pathname}: p99 ${result.p99} ms, ${result.rps.toFixed(0)} req/s`);
    if (PROFILE_DIR)
      await keepProfiles(
        pathname
          .replace(/^\/(api\/)?/, '')
          .replace(/[^\w]+/g, '_')
          .replace(/_+$/, ''),
      );
    if (result.failed > 0) throw new Error(`${pathname}: ${result.failed} requests failed`);
    return { ...result, cpu };
  };
  const before = await run(CEILING);
  const reads = [];
  for (const [name, pathname, , needs] of READS) reads.push({ name, ...(await run(pathname, headersOf[needs])) });
  const after = await run(CEILING);
  const ceiling = {
    name: `GET ${CEILING} (ceiling)`,
    rps: (before.rps + after.rps) / 2,
    p99: Math.max(before.p99, after.p99),
    cpu: Object.fromEntries(Object.keys(before.cpu).map((name) => [name, (before.cpu[name] + after.cpu[name]) / 2])),
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
    const processes = {};
    for (const name of ['billing', 'auth', 'content', 'chat-history', 'metrics']) {
      const { env: profileEnv, nodeFlags } = profiled(name);
      const { child } = await startService(
        group,
        name,
        bundles[name],
        { ...env, ...profileEnv, PORT: String(ports[name]) },
        nodeFlags,
      );
      processes[name] = child.pid;
    }
    const { env: profileEnv, nodeFlags } = profiled('gateway');
    const gateway = await startGateway(group, {
      script: bundles.gateway,
      upstreamOf: (name) => local(ports[name]),
      env: { ...env, ...profileEnv },
      port: ports.gateway,
      nodeFlags,
    });
    processes.gateway = gateway.child.pid;
    return await measureReads(gateway.url, await arrange(gateway.url, admin), {
      mode: 'multi',
      processes,
      signalled: PROFILE_DIR ? Object.values(processes) : [],
    });
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
    const profile = profiled('embedded');
    const product = await startEmbedded(group, {
      bundle: bundles.embedded,
      port,
      dataDir,
      env: {
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        ...profile.env,
      },
      nodeFlags: [
        ...(values.probe ? ['--import', path.join(ROOT, 'bench', 'lib', 'tail-probe.mjs')] : []),
        ...profile.nodeFlags,
      ],
    });
    const rssStart = rssMb(product.pid);
    const measured = await measureReads(local(port), await arrange(local(port), admin), {
      mode: 'embedded',
      processes: { embedded: product.pid },
      signalled: values.probe || PROFILE_DIR ? [product.pid] : [],
      probe: values.probe,
    });
    return { ...measured, rssStart, rssLoad: rssMb(product.pid) };
  } finally {
    await group.stopAll();
    await rm(dataDir, { recursive: true, force: true });
  }
}

requireWebBuild();
if (PROFILE_DIR) await mkdir(PROFILE_DIR, { recursive: true });
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
const cpuLine = columns([
  ['CPU per request (µs)', 36],
  ...modes.flatMap((mode) =>
    mode === 'multi'
      ? [
          ['multi: gateway', -16],
          ['service', -20],
          ['total', -8],
          ['autocannon', -12],
        ]
      : [
          [`${mode}: process`, -18],
          ['autocannon', -12],
        ],
  ),
]);
console.log(`\n${cpuLine.header}`);
const cpuCellsOf = (mode, read, service) => {
  const { cpu } = read;
  if (mode !== 'multi') return [cpu[mode].toFixed(0), cpu.autocannon.toFixed(0)];
  const serviceCpu = service ? cpu[service] : 0;
  return [
    cpu.gateway.toFixed(0),
    service ? `${serviceCpu.toFixed(0)} ${service}` : '-',
    (cpu.gateway + serviceCpu).toFixed(0),
    cpu.autocannon.toFixed(0),
  ];
};
console.log(cpuLine([`GET ${CEILING} (ceiling)`, ...modes.flatMap((mode) => cpuCellsOf(mode, results[mode].ceiling))]));
for (const [i, [name, , service]] of READS.entries()) {
  console.log(cpuLine([name, ...modes.flatMap((mode) => cpuCellsOf(mode, results[mode].reads[i], service))]));
}
const verdict = targetVerdict(met);
console.log(
  `targets: every read ≥ ${TARGET_RATIO}× the ceiling with p99 ≤ ${TARGET_P99_FACTOR}× its p99, embedded RSS ≤ ${TARGET_RSS_LOAD_MB} MB after the load → ${verdict.text}`,
);
await writeFigures(values.json, figures, verdict.ok);
process.exitCode = verdict.ok ? 0 : 1;
