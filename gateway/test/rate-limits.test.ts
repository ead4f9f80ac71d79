import { afterEach, describe, expect, test } from '@jest/globals';
import { postExpectingContinue, type Seen, startTestGateway, type TestGateway } from './support/harness';

const TOO_MANY = { error: 'Слишком много запросов, попробуйте позже', code: 'rate_limited' };

let gw: TestGateway | undefined;

afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(gw!.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('POST /api/auth/login', () => {
  test('when one address goes over the limit, then 429 with Retry-After and the service is spared', async () => {
    gw = await startTestGateway({ RATE_LIMIT_LOGIN_POINTS: '3', RATE_LIMIT_LOGIN_WINDOW_SEC: '60' });

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await post('/api/auth/login', { email: `a${i}@example.com`, password: 'x' })).status);
    }
    const limited = await post('/api/auth/login', { email: 'a9@example.com', password: 'x' });

    expect(statuses).toEqual([200, 200, 200]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual(TOO_MANY);
    expect(gw.upstreams.auth.seen).toHaveLength(3);
  });

  test('an IPv6 client counts by its /64: another address of the same network meets the same limit, another network does not', async () => {
    gw = await startTestGateway({ RATE_LIMIT_LOGIN_POINTS: '2', TRUST_PROXY: '127.0.0.1' });
    const from = (ip: string, i: number) =>
      post('/api/auth/login', { email: `v6-${i}@example.com`, password: 'x' }, { 'x-forwarded-for': ip });

    expect((await from('2001:db8:1:2::1', 1)).status).toBe(200);
    expect((await from('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 2)).status).toBe(200);
    expect((await from('2001:db8:1:2:ffff::9', 3)).status).toBe(429);
    expect((await from('2001:db8:1:3::1', 4)).status).toBe(200);
  });

  test('when the limit is hit, then other routes of the same client still work', async () => {
    gw = await startTestGateway({ RATE_LIMIT_LOGIN_POINTS: '1' });
    await post('/api/auth/login', { email: 'b@example.com', password: 'x' });
    expect((await post('/api/auth/login', { email: 'b@example.com', password: 'x' })).status).toBe(429);

    expect((await fetch(`${gw.url}/api/articles`)).status).toBe(200);
  });

  test('when one address guesses at one account, then that address is stopped; other addresses are only slowed down', async () => {
    gw = await startTestGateway({
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_LOGIN_POINTS: '100',
      RATE_LIMIT_LOGIN_ACCOUNT_POINTS: '2',
    });
    gw.upstreams.auth.answer = (_seen, reply) => {
      reply(401, { error: 'Неверный email или пароль', code: 'invalid_credentials' });
      return true;
    };
    const attempt = (ip: string, email: string) =>
      post('/api/auth/login', { email, password: 'guess' }, { 'x-forwarded-for': ip });

    expect((await attempt('10.0.0.1', 'Victim@Example.com')).status).toBe(401);
    expect((await attempt('10.0.0.1', 'victim@example.com ')).status).toBe(401);
    const third = await attempt('10.0.0.1', 'victim@example.com');
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual(TOO_MANY);

    // Past the account's allowance from every address together, logins wait 500 ms more each, never 429.
    const started = performance.now();
    expect((await attempt('10.0.0.2', 'victim@example.com')).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(gw.upstreams.auth.seen).toHaveLength(3);
    // Another account from the stopped address is not affected.
    expect((await attempt('10.0.0.1', 'other@example.com')).status).toBe(401);
  });

  test('when a login succeeds, then its account’s count starts over', async () => {
    gw = await startTestGateway({ RATE_LIMIT_LOGIN_POINTS: '100', RATE_LIMIT_LOGIN_ACCOUNT_POINTS: '2' });
    let succeed = false;
    gw.upstreams.auth.answer = (_seen, reply) => {
      if (succeed) reply(200, { token: 't', user: {} });
      else reply(401, { error: 'Неверный email или пароль', code: 'invalid_credentials' });
      return true;
    };
    const login = () => post('/api/auth/login', { email: 'c@example.com', password: 'p' });

    expect((await login()).status).toBe(401);
    succeed = true;
    expect((await login()).status).toBe(200);
    succeed = false;

    expect((await login()).status).toBe(401);
    expect((await login()).status).toBe(401);
    expect((await login()).status).toBe(429);
  });

  test('the login body reaches the service byte for byte after the gateway read the e-mail', async () => {
    gw = await startTestGateway();
    const body = '{"email":"d@example.com","password":"пароль с пробелами"}';

    const res = await fetch(`${gw.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

    const seen = (await res.json()) as Seen;
    expect(seen.bodyLength).toBe(Buffer.byteLength(body));
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  test('when the client sends Expect: 100-continue (curl does for bodies over 1 KB), then the login still goes through', async () => {
    gw = await startTestGateway();
    const body = JSON.stringify({ email: 'f@example.com', password: 'p'.repeat(2000) });

    const res = await postExpectingContinue(`${gw.url}/api/auth/login`, body);

    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body) as Seen;
    expect(seen.bodyLength).toBe(Buffer.byteLength(body));
    expect(seen.headers.expect).toBeUndefined();
  });

  test('when a login body is far too big for a login, then 413', async () => {
    gw = await startTestGateway();

    const res = await post('/api/auth/login', { email: 'e@example.com', password: 'x'.repeat(100_000) });

    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('POST /api/auth/register and POST /api/feedback', () => {
  test('when the register limit is reached, then 429 with Retry-After', async () => {
    gw = await startTestGateway({ RATE_LIMIT_REGISTER_POINTS: '2' });

    await post('/api/auth/register', { email: 'r1@example.com', password: 'secret1' });
    await post('/api/auth/register', { email: 'r2@example.com', password: 'secret1' });
    const limited = await post('/api/auth/register', { email: 'r3@example.com', password: 'secret1' });

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toEqual(TOO_MANY);
  });

  test('when the password recovery limit is reached, then 429 with Retry-After', async () => {
    gw = await startTestGateway({ RATE_LIMIT_PASSWORD_RESET_POINTS: '2' });

    await post('/api/auth/password-reset', { email: 'p1@example.com' });
    await post('/api/auth/password-reset', { email: 'p2@example.com' });
    const limited = await post('/api/auth/password-reset', { email: 'p3@example.com' });

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toEqual(TOO_MANY);
  });

  test('when the feedback limit is reached, then 429, and reads of the same path are not counted', async () => {
    gw = await startTestGateway({ RATE_LIMIT_FEEDBACK_POINTS: '1' });
    const feedback = { telegram: '@me', subject: 'Вопрос', message: 'Текст' };

    expect((await fetch(`${gw.url}/api/feedback`)).status).toBe(200);
    expect((await post('/api/feedback', feedback)).status).toBe(200);
    const limited = await post('/api/feedback/', feedback);

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  test('with the in-memory store (embedded default), limits apply the same way', async () => {
    gw = await startTestGateway({ RATE_LIMIT_FEEDBACK_POINTS: '1' }, { kind: 'memory' });

    expect((await post('/api/feedback', {})).status).toBe(200);
    expect((await post('/api/feedback', {})).status).toBe(429);
  });
});
