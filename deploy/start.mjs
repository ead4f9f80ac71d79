// `npm start`: builds what is missing, then runs the product.
//  - AMQP_URL set: the gateway and each service in its own process (PostgreSQL, RabbitMQ, Redis from the URLs);
//  - otherwise: everything in this very process on the in-process bus, with PGlite under ./data unless
//    DATABASE_URL is set — no launcher process beside the product, and no build process left running.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundles } from './build.mjs';
import { localSecrets } from './local-secrets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
if (existsSync('.env')) process.loadEnvFile('.env');

// The product reads these (every process of it, with AMQP_URL): generated secrets outside production (kept under DATA_DIR), and
// the one SITE_URL every absolute URL starts with (the gateway's own address unless set).
const secrets = localSecrets(process.env);
Object.assign(process.env, secrets.values);
if (secrets.file) console.log(`JWT_SECRET / BOT_API_KEY not set: using generated ones kept in ${secrets.file}`);
// Said outright, so every process refuses development behind a public SITE_URL (docs/security.md).
process.env.NODE_ENV ||= 'development';
if (process.env.NODE_ENV !== 'production') process.env.SITE_URL ||= `http://localhost:${process.env.PORT || 8080}`;

// A build runs in a process of its own, so none of its memory stays with the product started next.
const servers = bundles.some(([, outfile]) => !existsSync(outfile));
const web = !existsSync('web/dist/index.html');
if (servers || web) {
  console.log(
    `Building ${servers && web ? 'the services and the web app' : servers ? 'the services' : 'the web app'}…`,
  );
  execFileSync(process.execPath, ['deploy/build.mjs', ...(servers && web ? [] : [servers ? 'servers' : 'web'])], {
    stdio: 'inherit',
  });
}

if (!process.env.AMQP_URL) {
  // The product in this process: it handles Ctrl+C itself and says what stopped.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(path.join(root, 'deploy/dist/embedded.js')).href);
} else {
  runProcesses();
}

function runProcesses() {
  const SERVICES = { auth: 8081, content: 8082, billing: 8083, 'chat-history': 8084, metrics: 8085, bot: 8086 };
  const children = [];
  let stopping = false;

  const stop = (code = 0) => {
    if (stopping) return;
    stopping = true;
    for (const { child } of children) child.kill('SIGTERM');
    Promise.all(
      children.map(
        ({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('exit', resolve))),
      ),
    ).then(() => {
      const stopped = children.map(({ name }) => name).join(', ');
      const kept = process.env.DATABASE_URL
        ? 'in PostgreSQL (the gpt_* databases of DATABASE_URL)'
        : `under ${path.resolve(process.env.DATA_DIR || './data')}`;
      console.log(`Stopped: ${stopped}. Data is kept ${kept}; the next npm start continues with it.`);
      process.exit(code);
    });
  };
  const run = (name, file, env) => {
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`${name} exited (${signal ?? code}); stopping the rest`);
      stop(1);
    });
    children.push({ name, child });
  };
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());

  const upstreams = {};
  for (const [name, port] of Object.entries(SERVICES)) {
    const key = `${name.toUpperCase().replace('-', '_')}_URL`;
    upstreams[key] = process.env[key] ?? `http://127.0.0.1:${port}`;
    if (!process.env[key]) run(name, `services/${name}/dist/main.js`, { PORT: String(port) });
  }
  run('gateway', 'gateway/dist/main.js', upstreams);
}
