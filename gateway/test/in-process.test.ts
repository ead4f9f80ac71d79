import { createHash, randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createKeyValue, createLogger } from '@gpt/kit';
import { uniqueName } from '@gpt/kit/testing';
import { loadGatewayConfig } from '../src/config';
import { SERVICES, type ServiceName } from '../src/route-table';
import { type RunningGateway, startGateway } from '../src/start';
import {
  adminToken,
  bearer,
  BOT_API_KEY,
  closeServer,
  JWT_SECRET,
  listen,
  OPENAPI_DOC,
  userToken,
  whenBodyRead,
} from './support/harness';

/**
 * The same stand-in service behind two gateways: one proxying to it over loopback HTTP (the
 * multi-process mode), one calling its handler in process (the embedded default). Every answer a
 * client gets must be the same from both.
 */
const TIMEOUT_MS = 400;

function standIn(service: ServiceName): RequestListener {
  return (req, res) => {
    whenBodyRead(req, (body) => {
      const path = req.url?.split('?')[0];
      if (path === '/api/articles/silent') {
        // Answers only after the gateway gave up; the late write must go nowhere.
        setTimeout(() => res.end(res.write('late') ? 'r' : 'w'), TIMEOUT_MS * 2);
        return;
      }
      if (path === '/api/articles/stream') {
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'x-export': 'yes' });
        let row = 0;
        const next = () => {
          if (row === 5) return res.end();
          res.write(`row ${row++}\n`);
          setTimeout(next, 50);
        };
        next();
        return;
      }
      if (path === '/api/articles/missing') {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'Статья не найдена', code: 'article_not_found' }));
        return;
      }
      const status = path === '/api/auth/login' ? 401 : 200;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        JSON.stringify({
          service,
          method: req.method,
          url: req.url,
          forwardedFor: req.headers['x-forwarded-for'],
          requestId: req.headers['x-request-id'],
          claimed: req.headers['x-user-id'] ?? null,
          ...body,
        }),
      );
    });
  };
}

const handlers = Object.fromEntries(SERVICES.map((service) => [service, standIn(service)])) as Record<
  ServiceName,
  RequestListener
>;
const servers: Server[] = [];
const gateways: RunningGateway[] = [];
let proxied: string;
let inProcess: string;

async function gateway(urls: Record<string, string>, inProcessServices?: Record<ServiceName, RequestListener>) {
  const running = await startGateway({
    config: loadGatewayConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JWT_SECRET,
      BOT_API_KEY,
      WEB_DIR: '/nonexistent-web-dir',
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      ...urls,
    }),
    port: 0,
    host: '127.0.0.1',
    kv: createKeyValue({ keyPrefix: `${uniqueName('gw')}:` }),
    logger: createLogger({ name: 'gateway', level: 'silent' }),
    openapi: () => OPENAPI_DOC,
    inProcess: inProcessServices,
  });
  gateways.push(running);
  return running.url;
}

beforeAll(async () => {
  const urls: Record<string, string> = {};
  for (const service of SERVICES) {
    const server = createServer(handlers[service]);
    servers.push(server);
    urls[`${service.toUpperCase().replace('-', '_')}_URL`] = await listen(server);
  }
  proxied = await gateway(urls);
  // Nothing listens behind the in-process gateway: every service URL is a closed port.
  const closed = Object.fromEntries(Object.keys(urls).map((name) => [name, 'http://127.0.0.1:9']));
  inProcess = await gateway(closed, handlers);
});

afterAll(async () => {
  for (const running of gateways) await running.close();
  for (const server of servers) await closeServer(server);
});

/** What a client can tell of an answer: status, body and headers, less those that differ by nature. */
async function seen(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, init);
  const headers = Object.fromEntries(
    [...res.headers].filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(name)),
  );
  const text = await res.text();
  const body = res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : text;
  if (typeof body === 'object') delete body.requestId;
  return { status: res.status, headers, body };
}

const bothAnswer = async (path: string, init: RequestInit = {}) => {
  const [fromProxy, fromInProcess] = [await seen(proxied, path, init), await seen(inProcess, path, init)];
  expect(fromInProcess).toEqual(fromProxy);
  return fromInProcess;
};

describe('in-process dispatch answers as the proxy does', () => {
  test.each([
    ['a public read with a query string', '/api/articles?page=2&limit=12&tag=%D0%B3%D0%BF%D1%82', {}],
    ['a user route with a token', '/api/auth/profile', { headers: bearer(userToken()) }],
    ['an admin route', '/api/admin/users?page=1', { headers: bearer(adminToken()) }],
    ['a bot route', '/api/bot/balance/42', { headers: { 'x-bot-key': BOT_API_KEY } }],
    [
      'claimed identity headers dropped',
      '/api/articles',
      { headers: { 'x-user-id': '1', 'x-forwarded-for': '6.6.6.6' } },
    ],
    ['the service’s 404', '/api/articles/missing', {}],
    ['the gateway’s 401', '/api/auth/profile', {}],
    ['the gateway’s 403', '/api/admin/users', { headers: bearer(userToken()) }],
    ['the gateway’s 404', '/api/no-such-route', {}],
  ])('%s', async (_name, path, init) => {
    const answer = await bothAnswer(path, init);
    expect(answer.status).toBeGreaterThan(0);
  });

  test('a 1 MB body arrives whole, and a login body the gateway read for its limits arrives as sent', async () => {
    const big = randomBytes(1024 * 1024)
      .toString('base64')
      .slice(0, 1024 * 1024);
    const upload = await bothAnswer('/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: big }),
    });
    expect(upload.body).toMatchObject({ service: 'content', bodyLength: JSON.stringify({ text: big }).length });
    const form = JSON.stringify({ email: 'someone@example.com', password: 'wrong-password' });
    const login = await bothAnswer('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: form,
    });
    expect(login).toMatchObject({
      status: 401,
      body: { bodyLength: form.length, bodySha256: createHash('sha256').update(form).digest('hex') },
    });
  });

  test('a streamed answer arrives chunk by chunk with its headers', async () => {
    const answer = await bothAnswer('/api/articles/stream');
    expect(answer).toMatchObject({
      status: 200,
      headers: { 'x-export': 'yes' },
      body: 'row 0\nrow 1\nrow 2\nrow 3\nrow 4\n',
    });
    const res = await fetch(`${inProcess}/api/articles/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    // The first rows are there before the service has written the last.
    expect(new TextDecoder().decode(first.value)).toMatch(/^row 0\n/);
    expect(new TextDecoder().decode(first.value)).not.toContain('row 4');
    await reader.cancel();
  });

  test('a service silent past UPSTREAM_TIMEOUT_MS gets the 502 of the proxy, and its late answer goes nowhere', async () => {
    const answer = await bothAnswer('/api/articles/silent');
    expect(answer).toMatchObject({ status: 502, body: { code: 'upstream_unavailable' } });
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    expect((await seen(inProcess, '/api/articles')).status).toBe(200);
  });
});
