// `npm start`: builds what is missing, then runs the product.
//  - AMQP_URL set: the gateway and each service in its own process (PostgreSQL, RabbitMQ, Redis from the URLs);
//  - otherwise: everything in one process on the in-process bus, with PGlite under ./data unless DATABASE_URL is set.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles, buildServers, buildWeb } from './build.mjs';
import { EMBEDDED_ENV, EMBEDDED_NODE_FLAGS } from './embedded-runtime.mjs';
import { localSecrets } from './local-secrets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
if (existsSync('.env')) process.loadEnvFile('.env');

// Every child process inherits these: generated secrets outside production (kept under DATA_DIR), and
// the one SITE_URL every absolute URL starts with (the gateway's own address unless set).
const secrets = localSecrets(process.env);
Object.assign(process.env, secrets.values);
if (secrets.file) console.log(`JWT_SECRET / BOT_API_KEY not set: using generated ones kept in ${secrets.file}`);
if (process.env.NODE_ENV !== 'production') process.env.SITE_URL ||= `http://localhost:${process.env.PORT || 8080}`;

if (bundles.some(([, outfile]) => !existsSync(outfile))) {
  console.log('Building the services…');
  await buildServers();
}
if (!existsSync('web/dist/index.html')) {
  console.log('Building the web app…');
  buildWeb();
}

const SERVICES = { auth: 8081, content: 8082, billing: 8083, 'chat-history': 8084, metrics: 8085, bot: 8086 };
const children = [];

function run(file, env, flags = []) {
  const child = spawn(process.execPath, ['--enable-source-maps', ...flags, file], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${file} exited (${signal ?? code}); stopping the rest`);
    stop(1);
  });
  children.push(child);
  return child;
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('exit', resolve))),
    ),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());

if (process.env.AMQP_URL) {
  const upstreams = {};
  for (const [name, port] of Object.entries(SERVICES)) {
    const key = `${name.toUpperCase().replace('-', '_')}_URL`;
    upstreams[key] = process.env[key] ?? `http://127.0.0.1:${port}`;
    if (!process.env[key]) run(`services/${name}/dist/main.js`, { PORT: String(port) });
  }
  run('gateway/dist/main.js', upstreams);
} else {
  run('deploy/dist/embedded.js', { ...EMBEDDED_ENV, ...process.env }, EMBEDDED_NODE_FLAGS);
}
