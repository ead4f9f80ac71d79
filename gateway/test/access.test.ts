import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { tokenVersionKey } from '@gpt/kit';
import jwt from 'jsonwebtoken';
import {
  adminToken,
  bearer,
  BOT_API_KEY,
  JWT_SECRET,
  type Seen,
  startTestGateway,
  type TestGateway,
  userToken,
} from './support/harness';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});

afterAll(async () => {
  await gw.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(gw.url + path, { headers });

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('a route that needs a token (GET /api/auth/profile)', () => {
  test('when no token is sent, then 401 with the Russian message and the service is not called', async () => {
    const before = gw.upstreams.auth.seen.length;

    const res = await get('/api/auth/profile');

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Требуется авторизация', code: 'unauthorized' });
    expect(gw.upstreams.auth.seen.length).toBe(before);
  });

  test('when the header is not a bearer token, then 401 token_invalid', async () => {
    const res = await get('/api/auth/profile', { authorization: 'Basic dXNlcjpwYXNz' });

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'token_invalid' });
  });

  test('when the token is malformed, then 401 token_invalid', async () => {
    const res = await get('/api/auth/profile', bearer('not.a.jwt'));

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'token_invalid', error: expect.any(String) });
  });

  test('when the token has expired, then 401 token_expired asking to log in again', async () => {
    const expired = jwt.sign({ role: 'user', ver: 0, exp: Math.floor(Date.now() / 1000) - 60 }, JWT_SECRET, {
      algorithm: 'HS256',
      subject: 'u-expired',
    });

    const res = await get('/api/auth/profile', bearer(expired));

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Сессия истекла, войдите снова', code: 'token_expired' });
  });

  test('when the token is signed with another secret, then 401', async () => {
    const forged = jwt.sign({ role: 'admin', ver: 0 }, 'some-other-secret-0123456789abcdef', {
      algorithm: 'HS256',
      subject: 'u-forged',
      expiresIn: '1h',
    });

    const res = await get('/api/auth/profile', bearer(forged));

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'token_invalid' });
  });

  test('when the token says alg none, then 401', async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'u-none', role: 'admin', ver: 0, exp: inAnHour() })}.`;

    const res = await get('/api/auth/profile', bearer(unsigned));

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'token_invalid' });
  });

  test('when the token is HS512 with the right secret, then 401 (the algorithm is pinned)', async () => {
    const header = base64url({ alg: 'HS512', typ: 'JWT' });
    const payload = base64url({ sub: 'u-512', role: 'user', ver: 0, exp: inAnHour() });
    const signature = createHmac('sha512', JWT_SECRET).update(`${header}.${payload}`).digest('base64url');

    const res = await get('/api/auth/profile', bearer(`${header}.${payload}.${signature}`));

    expect(res.status).toBe(401);
  });

  test('when the token is valid, then the request reaches auth with the Authorization header unchanged', async () => {
    const token = userToken();

    const res = await get('/api/auth/profile', bearer(token));

    expect(res.status).toBe(200);
    const seen = (await res.json()) as Seen;
    expect(seen).toMatchObject({ service: 'auth', method: 'GET', url: '/api/auth/profile' });
    expect(seen.headers.authorization).toBe(`Bearer ${token}`);
  });

  test('when the path differs only in case or a trailing slash, then the token is still required', async () => {
    expect((await get('/api/Auth/PROFILE')).status).toBe(401);
    expect((await get('/api/auth/profile/')).status).toBe(401);
    expect((await get('/api/billing/payments/123')).status).toBe(401);
    expect((await get('/api/auth/change-password')).status).toBe(401);
    expect((await get('/api/auth/link')).status).toBe(401);
  });
});

describe('token revocation', () => {
  test('when the user’s token version is bumped in Redis, then the old token is refused within a second', async () => {
    const sub = `u-revoked-${Date.now()}`;
    const token = userToken({ sub, ver: 1 });
    await gw.kv.set(tokenVersionKey(sub), '1');
    expect((await get('/api/auth/profile', bearer(token))).status).toBe(200);

    await gw.kv.set(tokenVersionKey(sub), '2');
    const bumpedAt = Date.now();
    let res = await get('/api/auth/profile', bearer(token));
    // The gateway trusts a version it read for at most ~500 ms; wait for that window to pass, not longer.
    while (res.status === 200 && Date.now() - bumpedAt < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await get('/api/auth/profile', bearer(token));
    }

    expect(res.status).toBe(401);
    expect(Date.now() - bumpedAt).toBeLessThan(1000);
    expect(await res.json()).toMatchObject({ code: 'token_revoked' });
    // A token issued with the new version passes.
    expect((await get('/api/auth/profile', bearer(userToken({ sub, ver: 2 })))).status).toBe(200);
  });
});

describe('/api/admin/*', () => {
  test('when a user token is sent, then 403 with the Russian message', async () => {
    const res = await get('/api/admin/users?page=1', bearer(userToken()));

    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'Недостаточно прав', code: 'forbidden' });
  });

  test('when no token is sent, then 401', async () => {
    expect((await get('/api/admin/stats')).status).toBe(401);
  });

  test('when an admin token is sent, then it reaches the owning service with the query intact', async () => {
    const res = await get('/api/admin/users?page=2&limit=10', bearer(adminToken()));

    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ service: 'auth', url: '/api/admin/users?page=2&limit=10' });
  });

  test('when an admin path is not in the table, then 404 (not proxied anywhere)', async () => {
    const res = await get('/api/admin/secrets', bearer(adminToken()));

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Не найдено', code: 'not_found' });
  });
});

describe('/api/bot/*', () => {
  test('when X-Bot-Key is missing, then 401', async () => {
    const res = await get('/api/bot/balance/123');

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'invalid_bot_key' });
  });

  test('when X-Bot-Key is wrong, then 401', async () => {
    expect((await get('/api/bot/balance/123', { 'x-bot-key': `${BOT_API_KEY}x` })).status).toBe(401);
    expect((await get('/api/bot/balance/123', { 'x-bot-key': 'short' })).status).toBe(401);
  });

  test('when a user JWT is sent instead of the key, then 401', async () => {
    expect((await get('/api/bot/models', bearer(adminToken()))).status).toBe(401);
  });

  test('when X-Bot-Key is right, then the call is proxied to the owning service', async () => {
    const res = await get('/api/bot/messages?user=5', { 'x-bot-key': BOT_API_KEY });

    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ service: 'chat-history', url: '/api/bot/messages?user=5' });
  });
});

describe('identity headers', () => {
  test('when a client sends x-user-id and friends, then the service never sees them', async () => {
    const res = await get('/api/articles', {
      'x-user-id': '1',
      'x-user-role': 'admin',
      'x-auth-user': 'admin@example.com',
      'x-forwarded-user': 'admin',
      'x-real-ip': '10.9.9.9',
      forwarded: 'for=10.9.9.9',
      'x-custom': 'kept',
    });

    const seen = (await res.json()) as Seen;
    expect(seen.headers['x-user-id']).toBeUndefined();
    expect(seen.headers['x-user-role']).toBeUndefined();
    expect(seen.headers['x-auth-user']).toBeUndefined();
    expect(seen.headers['x-forwarded-user']).toBeUndefined();
    expect(seen.headers['x-real-ip']).toBeUndefined();
    expect(seen.headers.forwarded).toBeUndefined();
    expect(seen.headers['x-custom']).toBe('kept');
  });
});

describe('public routes', () => {
  test('articles, categories, tags, tariffs and payment webhooks need no token', async () => {
    for (const path of [
      '/api/articles?page=1&limit=12',
      '/api/articles/gpt-guide',
      '/api/article_categories/select',
      '/api/article_tags/select',
      '/api/tariffs',
      '/api/billing/webhooks/yookassa',
    ]) {
      expect({ path, status: (await get(path)).status }).toEqual({ path, status: 200 });
    }
  });
});
