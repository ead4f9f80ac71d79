import { afterEach } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { createKeyValue, createLogger, type KeyValue, type Logger, signAccessToken } from '@gpt/kit';
import { testInfra, uniqueName } from '@gpt/kit/testing';
import { loadGatewayConfig } from '../../src/config';
import { SERVICES, type ServiceName } from '../../src/route-table';
import { type RunningGateway, startGateway } from '../../src/start';

/** What the gateway answers when a service cannot be reached. */
export const UNAVAILABLE = { error: 'Сервис временно недоступен', code: 'upstream_unavailable' };

export const JWT_SECRET = 'gateway-test-secret-0123456789abcdef-0123456789';
export const BOT_API_KEY = 'gateway-test-bot-key-123456';
export const OPENAPI_DOC = { openapi: '3.1.0', info: { title: 'Gateway test', version: '1' }, paths: {} };

/** What a stand-in service saw, echoed back as its answer. */
export interface Seen {
  service: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyLength: number;
  bodySha256: string;
  /** The port of the connection it came on (the gateway's side): the same one while a connection is kept. */
  remotePort: number;
}

export interface Upstream {
  url: string;
  /** Requests this service received, in order. */
  seen: Seen[];
  /** Replaces the default echo for the next requests; return true when handled. */
  answer?: (seen: Seen, reply: (status: number, body: unknown, headers?: Record<string, string>) => void) => boolean;
  close(): Promise<void>;
}

/** Reads a request's body to its end, keeping only its length and SHA-256, then calls `done`. */
export function whenBodyRead(
  req: IncomingMessage,
  done: (body: { bodyLength: number; bodySha256: string }) => void,
): void {
  const hash = createHash('sha256');
  let bodyLength = 0;
  req.on('data', (chunk: Buffer) => {
    bodyLength += chunk.length;
    hash.update(chunk);
  });
  req.on('end', () => done({ bodyLength, bodySha256: hash.digest('hex') }));
}

/** A small real HTTP server standing in for one of our services: echoes what it received as JSON. */
export async function startUpstream(service: string): Promise<Upstream> {
  const upstream: Upstream = { url: '', seen: [], close: async () => {} };
  const server = createServer((req, res) => {
    whenBodyRead(req, (body) => {
      const seen: Seen = {
        service,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        remotePort: req.socket.remotePort ?? 0,
        ...body,
      };
      const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-powered-by': 'Express', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/readyz') return reply(200, { status: 'ok' });
      upstream.seen.push(seen);
      if (upstream.answer?.(seen, reply)) return;
      reply(200, seen);
    });
  });
  upstream.url = await listen(server);
  upstream.close = () => closeServer(server);
  return upstream;
}

/** A port where nothing listens any more. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await closeServer(server);
  return url;
}

/** Accepts connections and never says a word. */
export async function startSilentUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a test file starts, closed after each of its tests: the gateway it keeps in `gw`, then
 * whatever it pushed on `cleanups` (stand-in services), in that order.
 */
export function closedAfterEach(): { gw: TestGateway | undefined; cleanups: Array<() => Promise<void>> } {
  const started = { gw: undefined as TestGateway | undefined, cleanups: [] as Array<() => Promise<void>> };
  afterEach(async () => {
    await started.gw?.close();
    started.gw = undefined;
    for (const cleanup of started.cleanups.splice(0)) await cleanup();
  });
  return started;
}

export interface TestGateway {
  url: string;
  kv: KeyValue;
  upstreams: Record<ServiceName, Upstream>;
  running: RunningGateway;
  close(): Promise<void>;
}

/**
 * The gateway in front of five echoing stand-in services, on real Redis with a key prefix of its own
 * (so test files never share rate-limit counters or token versions).
 */
export async function startTestGateway(
  env: Record<string, string> = {},
  options: { kind?: 'redis' | 'memory'; logger?: Logger } = {},
): Promise<TestGateway> {
  const upstreams = {} as Record<ServiceName, Upstream>;
  for (const service of SERVICES) upstreams[service] = await startUpstream(service);
  const kv = createKeyValue({
    url: options.kind === 'memory' ? undefined : testInfra.redisUrl,
    keyPrefix: `${uniqueName('gw')}:`,
  });
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET,
    BOT_API_KEY,
    AUTH_URL: upstreams.auth.url,
    CONTENT_URL: upstreams.content.url,
    BILLING_URL: upstreams.billing.url,
    CHAT_HISTORY_URL: upstreams['chat-history'].url,
    METRICS_URL: upstreams.metrics.url,
    BOT_URL: upstreams.bot.url,
    WEB_DIR: '/nonexistent-web-dir',
    ...env,
  });
  const running = await startGateway({
    config,
    port: 0,
    host: '127.0.0.1',
    kv,
    logger: options.logger ?? createLogger({ name: 'gateway', level: 'silent' }),
    openapi: () => OPENAPI_DOC,
  });
  return {
    url: running.url,
    kv,
    upstreams,
    running,
    async close() {
      await running.close();
      await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
      await kv.close();
    },
  };
}

export function userToken(overrides: { sub?: string; role?: 'admin' | 'user'; ver?: number } = {}): string {
  return signAccessToken(
    { sub: overrides.sub ?? uniqueName('user'), role: overrides.role ?? 'user', ver: overrides.ver ?? 0 },
    JWT_SECRET,
  );
}

export function adminToken(overrides: { sub?: string; ver?: number } = {}): string {
  return userToken({ ...overrides, role: 'admin' });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A POST the way curl sends bodies over 1 KB: `Expect: 100-continue`, body only after the
 * server's "100 Continue" (fetch cannot do this).
 */
export function postExpectingContinue(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
        ...headers,
      },
    });
    req.on('continue', () => req.end(body));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
  });
}

export function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
