/**
 * Gateway speed: one service, nginx in front of it, our gateway in front of it; the same
 * load against each, twice, for a public read and an authenticated read.
 *
 *   node bench/gateway.mjs [--duration 10] [--connections 50] [--rounds 2] [--warmup 3] [--no-access-log]
 *                          [--with-bare] [--smoke] [--json FILE]
 *
 * The servers run in child processes and the load generator (autocannon) in this one, so the
 * measuring does not steal the measured process's event loop. Nginx comes from Debian's package
 * (installed when missing; a smoke run skips it instead); its config is generated into a temp folder: one worker, upstream
 * keep-alive, loopback only, no daemon. The gateway uses Redis (BENCH_REDIS_URL) when it answers.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './lib/bundle.mjs';
import { reachable, servers } from './lib/infra.mjs';
import { call, cannon } from './lib/load.mjs';
import { benchArgs, smoke, targetVerdict } from './lib/options.mjs';
import { freePorts, waitForPort } from './lib/ports.mjs';
import { cpuMs, withProcesses } from './lib/processes.mjs';
import { local, signToken, startGateway } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns, mean } from './lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const NGINX = '/usr/sbin/nginx';
const TARGET_RPS_RATIO = 0.6;
const TARGET_P99_RATIO = 2;
/** The rows of the measurements (declared before the top-level await below runs). */
const line = columns([
  ['round', 6],
  ['route', 24],
  ['target', 9],
  ['req/s', -9],
  ['p50 ms', -8],
  ['p99 ms', -8],
  ['proxy CPU µs/req', -18],
  ['service CPU µs/req', -20],
]);

const role = process.argv[2];
if (role === '--upstream') await runUpstream();
else if (role === '--gateway') await runGateway(process.argv[3]);
else if (role === '--bare-proxy') await runBareProxy();
else await main();

// ─── the orchestrator ──────────────────────────────────────────────────────────────────────────

async function main() {
  const values = benchArgs(
    {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '3' },
      'no-access-log': { type: 'boolean', default: false },
      // Also measure a bare node:http proxy (no checks, no library): the ceiling for any Node gateway here.
      'with-bare': { type: 'boolean', default: false },
    },
    { duration: '1', connections: '10', rounds: '1', warmup: '0' },
  );
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const rounds = Number(values.rounds);
  const warmup = Number(values.warmup);
  const accessLog = !values['no-access-log'];
  const withBare = values['with-bare'];

  const work = await mkdtemp(path.join(tmpdir(), 'gpt-bench-'));
  await chmod(work, 0o755); // nginx's worker runs as nobody and needs its temp folders
  try {
    const options = { duration, connections, rounds, warmup, accessLog, withBare };
    const { passed, figures } = await withProcesses((group) => measure(group, work, options));
    await writeFigures(values.json, figures, passed);
    process.exitCode = passed ? 0 : 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Starts upstream, nginx, gateway (and the bare proxy) in `group`, measures them: { passed, figures }. */
async function measure(group, work, { duration, connections, rounds, warmup, accessLog, withBare }) {
  const token = signToken('user', 42);
  const redis = (await reachable(servers.redis)) ? servers.redis : undefined;

  const [upstreamPort, nginxPort, barePort] = await freePorts(3);
  const upstream = group.node('upstream', SELF, { PORT: String(upstreamPort) }, ['--upstream']);
  await waitForPort(upstreamPort);

  const nginx = await startNginx(group, work, nginxPort, upstreamPort);
  if (nginx) await waitForPort(nginxPort);

  const { gateway: gatewayBundle } = await bundle('gateway', { gateway: 'gateway/src/start.ts' });
  const gateway = await startGateway(group, {
    script: SELF,
    args: ['--gateway', gatewayBundle],
    upstreamOf: () => local(upstreamPort),
    env: {
      ...(redis ? { REDIS_URL: redis, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` } : {}),
      ACCESS_LOG: String(accessLog),
      LOG_LEVEL: 'info',
    },
  });

  let bare;
  if (withBare) {
    bare = group.node('bare', SELF, { PORT: String(barePort), UPSTREAM_PORT: String(upstreamPort) }, ['--bare-proxy']);
    await waitForPort(barePort);
  }

  const targets = {
    direct: local(upstreamPort),
    ...(nginx ? { nginx: local(nginxPort) } : {}),
    ...(withBare ? { 'node-bare': local(barePort) } : {}),
    gateway: gateway.url,
  };
  const proxyOf = { direct: undefined, nginx, gateway: gateway.child, 'node-bare': bare };
  const routes = {
    'GET /api/articles': { path: '/api/articles?page=1&limit=12', headers: {} },
    'GET /api/auth/profile': { path: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } },
  };
  for (const target of Object.values(targets)) {
    for (const route of Object.values(routes)) await call(target + route.path, { headers: route.headers });
  }
  // The gateway must refuse what it should, or the numbers measure a gateway that checks nothing.
  await call(`${targets.gateway}/api/auth/profile`, { expect: 401 });

  console.log(
    `gateway bench: ${connections} connections, ${duration} s per run, ${rounds} rounds; node ${process.version}; ` +
      `nginx ${nginx ? nginxVersion() : 'not installed, skipped'}; gateway store: ${redis ? 'Redis' : 'memory'}; access log: ${accessLog ? 'on' : 'off'}`,
  );
  const load = async (url, headers, seconds, proxy) => {
    const before = [cpuMs(proxy?.pid), cpuMs(upstream.pid)];
    const result = await cannon({ url, headers }, { connections, duration: seconds });
    if (result.failed) throw new Error(`${url}: ${result.failed} errors, timeouts or non-2xx answers`);
    const perRequest = (ms, start) => ((ms - start) * 1000) / result.total;
    return {
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      proxyCpu: proxy ? perRequest(cpuMs(proxy.pid), before[0]) : undefined,
      serviceCpu: perRequest(cpuMs(upstream.pid), before[1]),
    };
  };

  if (warmup > 0) {
    for (const target of Object.values(targets)) {
      for (const route of Object.values(routes)) await load(target + route.path, route.headers, warmup);
    }
  }

  const rows = [];
  console.log(`\n${line.header}`);
  for (let round = 1; round <= rounds; round++) {
    for (const [routeName, route] of Object.entries(routes)) {
      for (const [targetName, target] of Object.entries(targets)) {
        const measured = await load(target + route.path, route.headers, duration, proxyOf[targetName]);
        rows.push({ round, route: routeName, target: targetName, ...measured });
        printRow(rows.at(-1));
      }
    }
  }
  return summarize(rows, Object.keys(routes), rounds, connections);
}

function printRow(row) {
  console.log(
    line([
      row.round,
      row.route,
      row.target,
      row.rps.toFixed(0),
      row.p50,
      row.p99,
      row.proxyCpu === undefined ? '-' : row.proxyCpu.toFixed(0),
      row.serviceCpu.toFixed(0),
    ]),
  );
}

/**
 * Ratios per round and over the mean of the rounds; the target holds when every round meets it.
 * Also the figures for the suite's table: the means, gateway against direct and against nginx.
 * Without nginx (a smoke run on a machine without it) only gateway against direct.
 */
function summarize(rows, routes, rounds, connections) {
  const ratios = columns([
    ['route', 24],
    ['round', 7],
    ['gw/nginx req/s', -16],
    ['gw/nginx p99', -14],
    ['  verdict', 0],
  ]);
  const withNginx = rows.some((r) => r.target === 'nginx');
  if (withNginx) console.log(`\n${ratios.header}`);
  let met = true;
  const figures = [];
  for (const route of routes) {
    const of = (target, key, round) =>
      mean(
        rows
          .filter((r) => r.route === route && r.target === target && (!round || r.round === round))
          .map((r) => r[key]),
      );
    const label = `${route}, ${connections} connections`;
    if (route === routes[0]) {
      figures.push(
        figure(
          `public read ${label}: req/s`,
          'req/s',
          ['gateway', of('gateway', 'rps')],
          ['direct', of('direct', 'rps')],
        ),
        figure(`public read ${label}: p99`, 'ms', ['gateway', of('gateway', 'p99')], ['direct', of('direct', 'p99')]),
      );
    }
    if (!withNginx) continue;
    const perRound = [];
    for (let round = 1; round <= rounds + 1; round++) {
      const only = round > rounds ? 0 : round;
      const rps = of('gateway', 'rps', only) / of('nginx', 'rps', only);
      const p99 = of('gateway', 'p99', only) / Math.max(1, of('nginx', 'p99', only));
      const ok = rps >= TARGET_RPS_RATIO && p99 <= TARGET_P99_RATIO;
      if (only) {
        met &&= ok;
        perRound.push({ rps, p99, ok });
      }
      console.log(ratios([route, only || 'mean', rps.toFixed(2), p99.toFixed(2), `  ${ok ? 'ok' : 'MISSED'}`]));
    }
    const listed = (key) => perRound.map((r) => r[key].toFixed(2)).join(', ');
    const verdict = perRound.every((r) => r.ok) ? 'met' : 'MISSED';
    figures.push(
      figure(
        `${label}: req/s, gateway vs nginx`,
        'req/s',
        ['gateway', of('gateway', 'rps')],
        ['nginx', of('nginx', 'rps')],
        `target ≥ ${TARGET_RPS_RATIO} every round (${listed('rps')}): ${verdict}`,
      ),
      figure(
        `${label}: p99, gateway vs nginx`,
        'ms',
        ['gateway', of('gateway', 'p99')],
        ['nginx', of('nginx', 'p99')],
        `target ≤ ${TARGET_P99_RATIO} every round (${listed('p99')}): ${verdict}`,
      ),
    );
  }
  const verdict = targetVerdict(met);
  console.log(
    `\ntarget: gateway/nginx ≥ ${TARGET_RPS_RATIO} on req/s and ≤ ${TARGET_P99_RATIO} on p99 → ${withNginx ? verdict.text : 'not measured (no nginx)'}`,
  );
  if (rows.some((r) => r.target === 'node-bare') && withNginx) {
    for (const route of routes) {
      const of = (target) => mean(rows.filter((r) => r.route === route && r.target === target).map((r) => r.rps));
      console.log(
        `reference, ${route}: node-bare/nginx req/s ${(of('node-bare') / of('nginx')).toFixed(2)}, ` +
          `gateway/node-bare req/s ${(of('gateway') / of('node-bare')).toFixed(2)}`,
      );
    }
  }
  return { passed: verdict.ok, figures };
}

// ─── the servers ───────────────────────────────────────────────────────────────────────────────

/** The stand-in service: express, as every service is, answering the two measured reads. */
async function runUpstream() {
  const { default: express } = await import('express');
  const articles = Array.from({ length: 12 }, (_, i) => ({
    id: i + 1,
    slug: `article-${i + 1}`,
    title: `Как использовать GPT: часть ${i + 1}`,
    excerpt: 'Короткое описание статьи о возможностях языковых моделей и о том, как извлечь из них пользу.',
    featured_image: `/images/article-${i + 1}.webp`,
    reading_time: 5 + (i % 4),
    views: 100 * (i + 1),
    created_at: new Date(Date.UTC(2025, 5, 1 + i)).toISOString(),
    tags: [
      { id: 1, name: 'GPT', slug: 'gpt' },
      { id: 2, name: 'Нейросети', slug: 'ai' },
    ],
    categories: [{ id: 1, name: 'Руководства', slug: 'guides' }],
  }));
  const list = { success: true, articles, pagination: { page: 1, limit: 12, total: 48, pages: 4 } };
  const user = {
    id: 42,
    email: 'user@example.com',
    username: 'user42',
    role: 'user',
    credits: 1500,
    tariff: { id: 1, name: 'Base' },
    telegram_id: null,
    created_at: '2025-06-01T10:00:00.000Z',
  };
  const app = express();
  app.get('/api/articles', (_req, res) => res.json(list));
  app.get('/api/auth/profile', (_req, res) => res.json(user));
  app.get('/readyz', (_req, res) => res.json({ status: 'ok' }));
  const server = app.listen(Number(process.env.PORT), '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

/** For reference only: node:http piping to a keep-alive agent, nothing checked, nothing logged. */
async function runBareProxy() {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256 });
  const port = Number(process.env.UPSTREAM_PORT);
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

/** The gateway as deploy runs it (bundled by esbuild), with a stand-in OpenAPI document. */
async function runGateway(file) {
  const { startGateway } = await import(file);
  const running = await startGateway({
    openapi: () => ({ openapi: '3.1.0', info: { title: 'bench', version: '0' }, paths: {} }),
  });
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
}

/** Starts nginx in front of the upstream, installing it first when missing; a smoke run skips it instead (undefined). */
async function startNginx(group, work, port, upstreamPort) {
  if (!existsSync(NGINX) && smoke) {
    console.log('nginx is not installed: a smoke run skips the comparison with it (the full run installs it)');
    return undefined;
  }
  if (!existsSync(NGINX)) {
    console.log('nginx not found: installing Debian’s package…');
    const apt = (...args) =>
      execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    try {
      apt('install', '-y', 'nginx');
    } catch {
      apt('update'); // a fresh machine may have no package lists yet
      apt('install', '-y', 'nginx');
    }
  }
  const temp = (name) => path.join(work, name);
  const conf = `
worker_processes 1;
daemon off;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  keepalive_timeout 65s;
  keepalive_requests 100000;
  upstream service {
    server 127.0.0.1:${upstreamPort};
    keepalive 128;
    keepalive_requests 100000;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`;
  const file = temp('nginx.conf');
  await writeFile(file, conf);
  return group.start('nginx', NGINX, ['-p', work, '-c', file, '-e', temp('error.log')], { stopSignal: 'SIGQUIT' });
}

function nginxVersion() {
  const { stdout, stderr } = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return `${stdout}${stderr}`.replace('nginx version: ', '').trim();
}
