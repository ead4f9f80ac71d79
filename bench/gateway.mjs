/**
 * Gateway speed (issue 9): one service, nginx in front of it, our gateway in front of it; the same
 * load against each, twice, for a public read and an authenticated read.
 *
 *   node bench/gateway.mjs [--duration 10] [--connections 50] [--rounds 2] [--no-access-log]
 *
 * The servers run in child processes and the load generator (autocannon) in this one, so the
 * measuring does not steal the measured process's event loop. Nginx comes from Debian's package
 * (installed when missing); its config is generated into a temp folder: one worker, upstream
 * keep-alive, loopback only, no daemon.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePorts, waitForPort } from './lib/ports.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const NGINX = '/usr/sbin/nginx';
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef-0123456789abcdef';
const BOT_API_KEY = 'bench-bot-key-0123456789';
const TARGET_RPS_RATIO = 0.6;
const TARGET_P99_RATIO = 2;
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const role = process.argv[2];
if (role === '--upstream') await runUpstream();
else if (role === '--gateway') await runGateway(process.argv[3]);
else if (role === '--bare-proxy') await runBareProxy();
else await main();

// ─── the orchestrator ──────────────────────────────────────────────────────────────────────────

async function main() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '3' },
      'no-access-log': { type: 'boolean', default: false },
      // Also measure a bare node:http proxy (no checks, no library): the ceiling for any Node gateway here.
      'with-bare': { type: 'boolean', default: false },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const rounds = Number(values.rounds);
  const warmup = Number(values.warmup);
  const accessLog = !values['no-access-log'];
  const withBare = values['with-bare'];

  const { default: autocannon } = await import('autocannon');
  const work = await mkdtemp(path.join(tmpdir(), 'gpt-bench-'));
  await chmod(work, 0o755); // nginx's worker runs as nobody and needs its temp folders
  const children = [];
  const stopAll = async () => {
    for (const child of children.reverse()) await stop(child);
    await rm(work, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

  try {
    const token = await signToken();
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const redis = (await reachable(redisUrl)) ? redisUrl : undefined;

    const [upstreamPort, nginxPort, gatewayPort, barePort] = await freePorts(4);
    children.push(startChild('upstream', process.execPath, [SELF, '--upstream'], { PORT: String(upstreamPort) }));
    await waitForPort(upstreamPort);
    const upstream = `http://127.0.0.1:${upstreamPort}`;

    children.push(await startNginx(work, nginxPort, upstreamPort));
    await waitForPort(nginxPort);

    const bundle = await buildGatewayBundle();
    children.push(
      startChild('gateway', process.execPath, [SELF, '--gateway', bundle], {
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        JWT_SECRET,
        BOT_API_KEY,
        AUTH_URL: upstream,
        CONTENT_URL: upstream,
        BILLING_URL: upstream,
        CHAT_HISTORY_URL: upstream,
        METRICS_URL: upstream,
        ...(redis ? { REDIS_URL: redis } : {}),
        ACCESS_LOG: String(accessLog),
        LOG_LEVEL: 'info',
      }),
    );
    await waitForPort(gatewayPort);

    let bareChild;
    if (withBare) {
      bareChild = startChild('bare', process.execPath, [SELF, '--bare-proxy'], {
        PORT: String(barePort),
        UPSTREAM_PORT: String(upstreamPort),
      });
      children.push(bareChild);
      await waitForPort(barePort);
    }

    const targets = {
      direct: `http://127.0.0.1:${upstreamPort}`,
      nginx: `http://127.0.0.1:${nginxPort}`,
      ...(withBare ? { 'node-bare': `http://127.0.0.1:${barePort}` } : {}),
      gateway: `http://127.0.0.1:${gatewayPort}`,
    };
    const routes = {
      'GET /api/articles': { path: '/api/articles?page=1&limit=12', headers: {} },
      'GET /api/auth/profile': { path: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } },
    };
    for (const [name, target] of Object.entries(targets)) {
      for (const route of Object.values(routes))
        await expectOk(`${name} ${route.path}`, target + route.path, route.headers);
    }
    // The gateway must refuse what it should, or the numbers measure a gateway that checks nothing.
    const refused = await fetch(`${targets.gateway}/api/auth/profile`);
    if (refused.status !== 401)
      throw new Error(`gateway let an unauthenticated profile read through (${refused.status})`);

    console.log(
      `gateway bench: ${connections} connections, ${duration} s per run, ${rounds} rounds; node ${process.version}; ` +
        `nginx ${nginxVersion()}; gateway store: ${redis ? 'Redis' : 'memory'}; access log: ${accessLog ? 'on' : 'off'}`,
    );
    const [upstreamChild, nginxChild, gatewayChild] = children;
    const proxyOf = { direct: undefined, nginx: nginxChild, gateway: gatewayChild, 'node-bare': bareChild };
    const load = async (url, headers, seconds, proxy) => {
      const before = [cpuMs(proxy?.pid), cpuMs(upstreamChild.pid)];
      const result = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
      if (result.errors || result.timeouts || result.non2xx) {
        throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
      }
      const perRequest = (ms, start) => ((ms - start) * 1000) / result.requests.total;
      return {
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        proxyCpu: proxy ? perRequest(cpuMs(proxy.pid), before[0]) : undefined,
        serviceCpu: perRequest(cpuMs(upstreamChild.pid), before[1]),
      };
    };

    if (warmup > 0) {
      for (const target of Object.values(targets)) {
        for (const route of Object.values(routes)) await load(target + route.path, route.headers, warmup);
      }
    }

    const rows = [];
    for (let round = 1; round <= rounds; round++) {
      for (const [routeName, route] of Object.entries(routes)) {
        for (const [targetName, target] of Object.entries(targets)) {
          const measured = await load(target + route.path, route.headers, duration, proxyOf[targetName]);
          rows.push({ round, route: routeName, target: targetName, ...measured });
          printRow(rows.at(-1));
        }
      }
    }
    const passed = summarize(rows, Object.keys(routes), rounds);
    process.exitCode = passed ? 0 : 1;
  } finally {
    await stopAll();
  }
}

function printRow(row) {
  if (row.round === 1 && row.route.endsWith('articles') && row.target === 'direct') {
    console.log(
      `\n${pad('round', 6)}${pad('route', 24)}${pad('target', 9)}${lpad('req/s', 9)}${lpad('p50 ms', 8)}${lpad('p99 ms', 8)}` +
        `${lpad('proxy CPU µs/req', 18)}${lpad('service CPU µs/req', 20)}`,
    );
  }
  console.log(
    `${pad(String(row.round), 6)}${pad(row.route, 24)}${pad(row.target, 9)}${lpad(row.rps.toFixed(0), 9)}` +
      `${lpad(String(row.p50), 8)}${lpad(String(row.p99), 8)}` +
      `${lpad(row.proxyCpu === undefined ? '-' : row.proxyCpu.toFixed(0), 18)}${lpad(row.serviceCpu.toFixed(0), 20)}`,
  );
}

/** Ratios per round and over the mean of the rounds; the target holds when every round meets it. */
function summarize(rows, routes, rounds) {
  console.log(
    `\n${pad('route', 24)}${pad('round', 7)}${lpad('gw/nginx req/s', 16)}${lpad('gw/nginx p99', 14)}  verdict`,
  );
  let passed = true;
  for (const route of routes) {
    const pick = (target, round) =>
      rows.filter((r) => r.route === route && r.target === target && (!round || r.round === round));
    const mean = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
    for (let round = 1; round <= rounds + 1; round++) {
      const label = round > rounds ? 'mean' : String(round);
      const nginx = pick('nginx', round > rounds ? 0 : round);
      const gateway = pick('gateway', round > rounds ? 0 : round);
      const rps = mean(gateway, 'rps') / mean(nginx, 'rps');
      const p99 = mean(gateway, 'p99') / Math.max(1, mean(nginx, 'p99'));
      const ok = rps >= TARGET_RPS_RATIO && p99 <= TARGET_P99_RATIO;
      if (round <= rounds) passed &&= ok;
      console.log(
        `${pad(route, 24)}${pad(label, 7)}${lpad(rps.toFixed(2), 16)}${lpad(p99.toFixed(2), 14)}  ${ok ? 'ok' : 'MISSED'}`,
      );
    }
  }
  console.log(
    `\ntarget: gateway/nginx ≥ ${TARGET_RPS_RATIO} on req/s and ≤ ${TARGET_P99_RATIO} on p99 → ${passed ? 'met' : 'NOT met'}`,
  );
  if (rows.some((r) => r.target === 'node-bare')) {
    for (const route of routes) {
      const mean = (target, key) => {
        const list = rows.filter((r) => r.route === route && r.target === target);
        return list.reduce((sum, r) => sum + r[key], 0) / list.length;
      };
      console.log(
        `reference, ${route}: node-bare/nginx req/s ${(mean('node-bare', 'rps') / mean('nginx', 'rps')).toFixed(2)}, ` +
          `gateway/node-bare req/s ${(mean('gateway', 'rps') / mean('node-bare', 'rps')).toFixed(2)}`,
      );
    }
  }
  return passed;
}

function pad(text, width) {
  return text.padEnd(width);
}

function lpad(text, width) {
  return text.padStart(width);
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

/** The gateway as deploy runs it: its TypeScript bundled by esbuild, npm packages from node_modules. */
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

async function runGateway(bundle) {
  const { startGateway } = await import(bundle);
  const running = await startGateway({
    openapi: { openapi: '3.1.0', info: { title: 'bench', version: '0' }, paths: {} },
  });
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
}

async function buildGatewayBundle() {
  const esbuild = await import('esbuild');
  // Inside node_modules so the external packages resolve from the repository's node_modules.
  const outfile = path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'gateway.mjs');
  await mkdir(path.dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'gateway', 'src', 'start.ts')],
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
          // Our workspaces are TypeScript source: bundle them; npm packages load as installed.
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@gpt/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return outfile;
}

async function startNginx(work, port, upstreamPort) {
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
  return startChild('nginx', NGINX, ['-p', work, '-c', file, '-e', temp('error.log')], {});
}

function nginxVersion() {
  const { stdout, stderr } = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return `${stdout}${stderr}`.replace('nginx version: ', '').trim();
}

// ─── helpers ───────────────────────────────────────────────────────────────────────────────────

function startChild(name, command, args, env) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    // Logs go nowhere: the point is the cost of producing them, not of a terminal showing them.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.name = name;
  child.on('exit', (code, signal) => {
    if (!child.stopping) console.error(`${name} exited unexpectedly (${code ?? signal})`);
  });
  return child;
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stopping = true;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(child.name === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
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

/**
 * CPU time (user + system, ms) of a process and its children (nginx's worker): the cost per request
 * can be read even when the machine is busy with other work and the req/s figures swing.
 */
function cpuMs(pid) {
  if (!pid) return 0;
  let ticks = 0;
  const visit = (id) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const kids = readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim();
        for (const kid of kids ? kids.split(' ') : []) visit(kid);
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return (ticks * 1000) / CLOCK_TICKS;
}

async function expectOk(label, url, headers) {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${label}: ${res.status} ${body.slice(0, 200)}`);
}

async function signToken() {
  const { default: jwt } = await import('jsonwebtoken');
  return jwt.sign({ role: 'user', ver: 0 }, JWT_SECRET, { algorithm: 'HS256', subject: '42', expiresIn: '1h' });
}
