import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  adminToken,
  bearer,
  BOT_API_KEY,
  postExpectingContinue,
  type Seen,
  startTestGateway,
  type TestGateway,
} from './support/harness';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});

afterAll(async () => {
  await gw.close();
});

describe('routing', () => {
  const cases: Array<[string, string]> = [
    ['/api/auth/login', 'auth'],
    ['/api/admin/utm/stats', 'auth'],
    ['/api/bot/users/42', 'auth'],
    ['/api/bot/link-tokens', 'auth'],
    ['/api/articles/category/news?page=1', 'content'],
    ['/api/article_categories/select', 'content'],
    ['/api/article_tags/select', 'content'],
    ['/api/feedback', 'content'],
    ['/api/admin/articles/7', 'content'],
    ['/api/admin/article_categories/3', 'content'],
    ['/api/admin/article_tags/3', 'content'],
    ['/api/tariffs', 'billing'],
    ['/api/billing/webhooks/yookassa', 'billing'],
    ['/api/admin/tariffs/all', 'billing'],
    ['/api/admin/payments/9', 'billing'],
    ['/api/bot/payments', 'billing'],
    ['/api/bot/balance/42', 'billing'],
    ['/api/admin/models/1', 'chat-history'],
    ['/api/admin/history/next/5?userId=2', 'chat-history'],
    ['/api/admin/sys_vals/dollar_rate', 'chat-history'],
    ['/api/bot/messages', 'chat-history'],
    ['/api/bot/models', 'chat-history'],
    ['/api/bot/settings', 'chat-history'],
    ['/api/admin/stats', 'metrics'],
  ];

  test.each(cases)('%s goes to %s with its original path', async (path, service) => {
    const headers = path.startsWith('/api/bot/') ? { 'x-bot-key': BOT_API_KEY } : bearer(adminToken());

    const res = await fetch(gw.url + path, { headers });

    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ service, url: path });
  });

  test('when the /api path is unknown, then a JSON 404', async () => {
    const res = await fetch(`${gw.url}/api/nope`);

    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ error: 'Не найдено', code: 'not_found' });
  });

  test('when a service’s /internal route is asked for, then it is never routed', async () => {
    for (const path of ['/api/internal/users', '/internal/users', '/api/auth/../../internal/users']) {
      const res = await fetch(gw.url + path, { method: 'POST' });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    const internal = Object.values(gw.upstreams).flatMap((upstream) => upstream.seen.map((seen) => seen.url));
    expect(internal.filter((url) => url.includes('internal'))).toEqual([]);
  });

  test('when a path hides a dot segment, then 400 and nothing is proxied', async () => {
    const res = await rawGet('/api/articles/%2e%2e/admin/users');

    expect(res.status).toBe(400);
  });
});

describe('streaming', () => {
  test('when a 500 KB body is posted, then the service receives exactly those bytes', async () => {
    const body = randomBytes(500 * 1024);

    const res = await fetch(`${gw.url}/api/admin/articles`, {
      method: 'POST',
      headers: { ...bearer(adminToken()), 'content-type': 'application/octet-stream' },
      body,
    });

    const seen = (await res.json()) as Seen;
    expect(seen.bodyLength).toBe(body.length);
    expect(seen.bodySha256).toBe(createHash('sha256').update(body).digest('hex'));
  });

  test('when a chunked body is posted, then it streams through too', async () => {
    const chunks = [randomBytes(64 * 1024), randomBytes(64 * 1024), randomBytes(10)];
    const stream = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });

    const res = await fetch(`${gw.url}/api/feedback`, {
      method: 'PUT',
      body: stream,
      duplex: 'half',
    } as RequestInit);

    const seen = (await res.json()) as Seen;
    expect(seen.bodyLength).toBe(64 * 1024 * 2 + 10);
    expect(seen.bodySha256).toBe(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
  });

  test('when an upload asks for 100-continue, then the body still streams to the service', async () => {
    const body = JSON.stringify({ title: 'Статья', content: 'x'.repeat(50_000) });

    const res = await postExpectingContinue(`${gw.url}/api/admin/articles`, body, bearer(adminToken()));

    const seen = JSON.parse(res.body) as Seen;
    expect(seen.bodyLength).toBe(Buffer.byteLength(body));
  });
});

describe('request ids', () => {
  test('when the client sends X-Request-Id, then the service gets it and the answer carries it', async () => {
    const res = await fetch(`${gw.url}/api/articles`, { headers: { 'x-request-id': 'client-req-42' } });

    expect(res.headers.get('x-request-id')).toBe('client-req-42');
    expect(((await res.json()) as Seen).headers['x-request-id']).toBe('client-req-42');
  });

  test('when the client sends none (or a bad one), then one is made and used both ways', async () => {
    for (const headers of [{}, { 'x-request-id': 'bad id with spaces <script>' }]) {
      const res = await fetch(`${gw.url}/api/articles`, { headers });

      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[\w.:-]{8,}$/);
      expect(((await res.json()) as Seen).headers['x-request-id']).toBe(id);
    }
  });

  test('when the gateway itself refuses, then the answer still carries the id', async () => {
    const res = await fetch(`${gw.url}/api/auth/profile`, { headers: { 'x-request-id': 'refused-1' } });

    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('refused-1');
  });
});

describe('headers', () => {
  test('API answers carry the security headers and no X-Powered-By (even when the service sends one)', async () => {
    const res = await fetch(`${gw.url}/api/articles`);

    expect(res.status).toBe(200);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Plain HTTP from an untrusted peer: no HSTS (security-hardening.test.ts covers HTTPS behind a trusted proxy).
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('the service learns the client address in X-Forwarded-For, not what the client claims', async () => {
    const res = await fetch(`${gw.url}/api/articles`, { headers: { 'x-forwarded-for': '6.6.6.6' } });

    expect(((await res.json()) as Seen).headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  test('what the service answers (status, headers, body) comes back as is', async () => {
    gw.upstreams.content.answer = (seen, reply) => {
      if (seen.url !== '/api/articles/missing') return false;
      reply(404, { error: 'Статья не найдена', code: 'not_found' }, { 'x-service-header': 'yes' });
      return true;
    };

    const res = await fetch(`${gw.url}/api/articles/missing`);

    expect(res.status).toBe(404);
    expect(res.headers.get('x-service-header')).toBe('yes');
    expect(await res.json()).toEqual({ error: 'Статья не найдена', code: 'not_found' });
  });
});

/** fetch normalizes dot segments away; a raw request sends the path as written. */
function rawGet(path: string): Promise<{ status: number }> {
  const { hostname, port } = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
  });
}
