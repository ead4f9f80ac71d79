// How a bench starts the product's own processes: the shared secrets, the services, the gateway in
// front of them, tokens the gateway accepts.
import path from 'node:path';
import { EMBEDDED_ENV, EMBEDDED_NODE_FLAGS } from '../../deploy/embedded-runtime.mjs';
import jwt from 'jsonwebtoken';
import { freePorts } from './ports.mjs';
import { ROOT, waitForReady } from './processes.mjs';

export const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef-0123456789abcdef';
export const BOT_API_KEY = 'bench-bot-key-0123456789';
export const SERVICES = ['auth', 'content', 'billing', 'chat-history', 'metrics'];
/** Nothing listens on port 9 (discard): the upstream of a service a bench does not run. */
export const CLOSED = 'http://127.0.0.1:9';

/**
 * What every product process gets: loopback only, warn-level logs, the shared secrets, and the site's
 * public origin that production requires (the benches follow no link built from it).
 */
export const productEnv = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  JWT_SECRET,
  BOT_API_KEY,
  SITE_URL: 'http://127.0.0.1:8080',
};

/** `chat-history` → `CHAT_HISTORY`, as in the services' variable names. */
export const envName = (service) => service.toUpperCase().replace('-', '_');

/** The gateway's <SERVICE>_URL variables, each from upstreamOf(service). */
export const upstreamEnv = (upstreamOf) =>
  Object.fromEntries(SERVICES.map((name) => [`${envName(name)}_URL`, upstreamOf(name)]));

export const local = (port) => `http://127.0.0.1:${port}`;

/** A token as auth issues it, for `role` and user id `subject`. */
export function signToken(role, subject) {
  return jwt.sign({ role, ver: 0 }, JWT_SECRET, {
    algorithm: 'HS256',
    subject: String(subject),
    expiresIn: '1h',
  });
}

/**
 * Starts a service's bundle on a free port (or env.PORT) and waits until it is ready: { url, child }.
 * `nodeFlags` go before the bundle (`--cpu-prof` to profile it, a preload).
 */
export async function startService(group, name, file, env, nodeFlags = []) {
  const port = env.PORT ?? String((await freePorts(1))[0]);
  const child = group.start(name, process.execPath, [...nodeFlags, file], {
    env: { ...productEnv, ...env, PORT: port },
  });
  await waitForReady(`${local(port)}/readyz`, child);
  return { url: local(port), child };
}

/**
 * Starts the gateway in front of upstreamOf(service) and waits until it answers: { url, child }.
 * `script` is its bundle, or a bench's own role running it (with `args`); `port` a free one unless
 * given; `nodeFlags` go before the script (a preload).
 */
export async function startGateway(group, { script, args = [], upstreamOf, env = {}, port, nodeFlags = [] }) {
  port ??= (await freePorts(1))[0];
  const child = group.start('gateway', process.execPath, [...nodeFlags, script, ...args], {
    env: {
      ...productEnv,
      WEB_DIR: path.join(ROOT, 'web', 'dist'),
      ...upstreamEnv(upstreamOf),
      ...env,
      PORT: String(port),
    },
  });
  await waitForReady(`${local(port)}/healthz`, child);
  return { url: local(port), child };
}

/**
 * Starts the embedded bundle as `npm start` runs it (its Node flags and environment) with what it
 * hands the process on a newcomer's machine: no server URLs, its secrets, `dataDir`; not production
 * (that wants the payment and model keys); logs at warn, as in every bench. `nodeFlags` come first
 * (a preload); `env` adds to it. Resolves with the child once it answers on `port`.
 */
export async function startEmbedded(group, { bundle, port, dataDir, env = {}, nodeFlags = [] }) {
  const child = group.start('embedded', process.execPath, [...EMBEDDED_NODE_FLAGS, ...nodeFlags, bundle], {
    env: {
      ...EMBEDDED_ENV,
      NODE_ENV: 'development',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET,
      BOT_API_KEY,
      LOG_LEVEL: 'warn',
      ACCESS_LOG: 'false',
      WEB_DIR: path.join(ROOT, 'web', 'dist'),
      ...env,
    },
  });
  await waitForReady(`${local(port)}/api/healthz`, child, 120_000);
  return child;
}
