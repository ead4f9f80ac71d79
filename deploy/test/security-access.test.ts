import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { callApi, signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { signAccessToken } from '@gpt/kit';
import { eventually } from './support/async';
import {
  BOT_KEY,
  type CallOptions,
  casesFor,
  JWT_SECRET,
  login,
  type Operation,
  problemsOf,
  refusalProblem,
  SECURITY_ENV,
  servedOperations,
  type Session,
} from './support/security';

/**
 * Who may call what, through the real gateway and services: every admin route of the OpenAPI
 * document against every kind of bad token, every bot route without its key, and identity headers
 * a client makes up.
 */
let stack: TestStack;
let adminOps: Operation[];
let botOps: Operation[];
let admin: Session;
let user: Session;
/** Authorization header values (undefined: none sent) that must never open an admin route. */
const badAuthorization: Record<string, string | undefined> = {};

const BAD_TOKENS = [
  'no token',
  'a malformed token',
  'an expired admin token',
  'an admin token signed with another secret',
  'an unsigned admin token (alg: none)',
  'a user token',
  'the token of a deleted admin',
  'an admin token issued before a password change',
] as const;

beforeAll(async () => {
  // Behind a TLS-terminating proxy at 127.0.0.1, which says so in X-Forwarded-Proto.
  stack = await startTestStack({ ...SECURITY_ENV, TRUST_PROXY: '127.0.0.1' });
  const ops = await servedOperations(stack);
  adminOps = ops.filter((op) => op.path.startsWith('/api/admin/'));
  botOps = ops.filter((op) => op.path.startsWith('/api/bot/'));
  admin = await login(stack, stack.admin.email, stack.admin.password);
  user = await signUp(stack.url);
  // Forged tokens carry the real admin's claims: only the defect named differs from a good token.
  const claims = { sub: String(admin.id), role: 'admin' as const, ver: claimsOf(admin.token).ver };

  const deleted = await promotedAdmin();
  expect((await api('DELETE', `/api/admin/users/${deleted.id}`, { token: admin.token })).status).toBe(200);
  const changed = await promotedAdmin();
  const change = await api('POST', '/api/auth/change-password', {
    token: changed.token,
    body: { currentPassword: changed.password, newPassword: 'password2' },
  });
  expect(change.status).toBe(200);

  Object.assign(badAuthorization, {
    'no token': undefined,
    'a malformed token': 'Bearer not-a-jwt',
    'an expired admin token': bearer(signAccessToken(claims, JWT_SECRET, -60)),
    'an admin token signed with another secret': bearer(signAccessToken(claims, `${JWT_SECRET}-other`)),
    'an unsigned admin token (alg: none)': bearer(unsignedToken(claims)),
    'a user token': bearer(user.token),
    'the token of a deleted admin': bearer(await refusedSoon(deleted.token)),
    'an admin token issued before a password change': bearer(await refusedSoon(changed.token)),
  } satisfies Record<(typeof BAD_TOKENS)[number], string | undefined>);
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: CallOptions) =>
  callApi<T>(stack.url, method, path, options);

const bearer = (token: string) => `Bearer ${token}`;

function claimsOf(token: string): { sub: string; role: string; ver: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as never;
}

/** A well-formed JWT that names no algorithm and carries no signature. */
function unsignedToken(claims: { sub: string; role: string; ver: number }): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, iat: now, exp: now + 3600 })}.`;
}

/** A new user made admin by the admin, signed in again (a role change revokes older tokens). */
async function promotedAdmin(): Promise<Session> {
  const person = await signUp(stack.url);
  const res = await api('PUT', `/api/admin/users/${person.id}`, { token: admin.token, body: { role: 'admin' } });
  expect(res.status).toBe(200);
  const session = await login(stack, person.email, person.password);
  expect(claimsOf(session.token).role).toBe('admin');
  return session;
}

/** Waits until the gateway has noticed the revocation (its version cache lives under a second). */
const refusedSoon = (token: string) =>
  eventually(
    async () => {
      expect((await api('GET', '/api/admin/users', { token })).status).toBe(401);
      return token;
    },
    10_000,
    100,
  );

/** Anything but a refusal or a failure: the caller was let through to the route itself. */
const letThrough = (res: { status: number }) =>
  res.status === 401 || res.status === 403 || res.status >= 500 ? `status ${res.status}` : undefined;

describe('every /api/admin/* route of the OpenAPI document', () => {
  test('the document lists the admin routes of every service, each behind a bearer token', () => {
    expect(adminOps.length).toBeGreaterThan(30);
    expect(adminOps.filter((op) => op.security !== 'bearer')).toEqual([]);
    for (const prefix of ['users', 'articles', 'tariffs', 'models', 'history', 'sys_vals', 'stats']) {
      expect(adminOps.some((op) => op.path.startsWith(`/api/admin/${prefix}`))).toBe(true);
    }
  });

  test.each(BAD_TOKENS)('with %s, then refused with a JSON error', async (kind) => {
    const authorization = badAuthorization[kind];
    const expected = kind === 'a user token' ? 403 : 401;
    const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
    const problems = await problemsOf(
      stack,
      casesFor(adminOps, () => ({ headers })),
      (res) => refusalProblem(res, (status) => status === expected),
    );
    expect(problems).toEqual([]);
  });

  test('with the admin token, then every route lets the admin through', async () => {
    // Ids that exist nowhere: at worst a 404 or a 400, never a refusal or a failure.
    const problems = await problemsOf(
      stack,
      casesFor(adminOps, () => ({ token: admin.token })),
      letThrough,
    );
    expect(problems).toEqual([]);
  });

  test('with a user token and identity headers claiming the admin, then still 403; without a token, 401', async () => {
    const claimed = {
      'X-User-Id': String(admin.id),
      'X-User-Role': 'admin',
      'X-User-Email': admin.email,
      'X-Auth-User': admin.email,
      'X-Auth-Role': 'admin',
      'X-Role': 'admin',
      'X-Remote-User': admin.email,
      'X-Forwarded-User': admin.email,
      'X-Internal-Request': 'true',
      'X-Bot-Key': BOT_KEY,
    };
    const asUser = await problemsOf(
      stack,
      casesFor(adminOps, () => ({ token: user.token, headers: claimed })),
      (res) => refusalProblem(res, (status) => status === 403),
    );
    const anonymous = await problemsOf(
      stack,
      casesFor(adminOps, () => ({ headers: claimed })),
      (res) => refusalProblem(res, (status) => status === 401),
    );
    expect([...asUser, ...anonymous]).toEqual([]);
  });
});

describe('every /api/bot/* route of the OpenAPI document', () => {
  test('the document lists the bot routes, each behind the bot key', () => {
    expect(botOps.length).toBeGreaterThan(5);
    expect(botOps.filter((op) => op.security !== 'bot')).toEqual([]);
  });

  test.each<[string, () => Record<string, string>]>([
    ['no key', () => ({})],
    ['a wrong key', () => ({ 'X-Bot-Key': `${BOT_KEY}-wrong` })],
    ['an empty key', () => ({ 'X-Bot-Key': '' })],
    ['the admin’s bearer token instead of the key', () => ({ Authorization: bearer(admin.token) })],
  ])('with %s, then 401 with a JSON error', async (_kind, headers) => {
    const problems = await problemsOf(
      stack,
      casesFor(botOps, () => ({ headers: headers() })),
      (res) => refusalProblem(res, (status) => status === 401),
    );
    expect(problems).toEqual([]);
  });

  test('with the right key, then every route lets the bot through', async () => {
    const problems = await problemsOf(
      stack,
      casesFor(botOps, (op) => ({ botKey: BOT_KEY, body: op.method === 'GET' ? undefined : {} })),
      letThrough,
    );
    expect(problems).toEqual([]);
  });
});

describe('identity is what the token says', () => {
  test('when a user sends X-User-Id and friends naming the admin, then their profile is still their own', async () => {
    const res = await api<{ id: number; email: string; role: string }>('GET', '/api/auth/profile', {
      token: user.token,
      headers: { 'X-User-Id': String(admin.id), 'X-User-Role': 'admin', 'X-User-Email': admin.email },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, role: 'user' });
  });
});

describe('security headers (over HTTPS, as the trusted proxy says)', () => {
  const overHttps = { 'X-Forwarded-Proto': 'https' };
  const expectSafeHeaders = (headers: Headers) => {
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/default-src '(none|self)'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    const hstsMaxAge = Number(/max-age=(\d+)/.exec(headers.get('strict-transport-security') ?? '')?.[1]);
    expect(hstsMaxAge).toBeGreaterThanOrEqual(180 * 24 * 3600);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-powered-by')).toBeNull();
  };

  test.each([
    ['a public read', 'GET', '/api/tariffs', 200],
    ['a service’s refusal', 'POST', '/api/feedback', 400],
    ['the gateway’s refusal', 'GET', '/api/admin/users', 401],
    ['an unknown API path', 'GET', '/api/no-such-thing', 404],
    ['the health check', 'GET', '/api/healthz', 200],
  ])('API: %s carries CSP, HSTS and no X-Powered-By', async (_name, method, path, status) => {
    const res = await api(method, path, { headers: overHttps, ...(method === 'POST' ? { body: {} } : {}) });
    expect(res.status).toBe(status);
    expectSafeHeaders(res.headers);
  });

  test.each(['/', '/dashboard', '/admin/users', '/articles/no-such-article', '/api/docs'])(
    'page %s carries CSP with frame-ancestors none, HSTS and no X-Powered-By',
    async (path) => {
      const res = await fetch(`${stack.url}${path}`, { headers: overHttps });
      expect(res.headers.get('content-type')).toContain('text/html');
      expectSafeHeaders(res.headers);
    },
  );
});
