import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { callApi, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import { registerUser, SECURITY_ENV } from './support/security';

/**
 * Password guessing through the real gateway and auth service. The gateway sits behind a proxy at
 * 127.0.0.1 here, so each request can come "from" an address of its own via X-Forwarded-For.
 */
const PER_IP = 5;
const PER_ACCOUNT = 3;
const ACCOUNT_WINDOW_SEC = 900;

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({
    ...SECURITY_ENV,
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMIT_LOGIN_POINTS: String(PER_IP),
    RATE_LIMIT_LOGIN_ACCOUNT_POINTS: String(PER_ACCOUNT),
    RATE_LIMIT_LOGIN_ACCOUNT_WINDOW_SEC: String(ACCOUNT_WINDOW_SEC),
  });
}, 60_000);
afterAll(() => stack?.close());

/** A client address no other request of this file uses. */
const freshIp = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const unknownEmail = () => `${uniqueName('nobody')}@example.com`;

const login = (email: string, password: string, ip = freshIp()) =>
  callApi(stack.url, 'POST', '/api/auth/login', { body: { email, password }, headers: { 'X-Forwarded-For': ip } });

function expectLimited(res: Awaited<ReturnType<typeof login>>, windowSec: number) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/\S/) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSec);
}

describe('login brute force', () => {
  test('when one account is guessed at from many addresses, then its own limit stops it, even for the right password', async () => {
    const victim = await registerUser(stack);
    for (let i = 0; i < PER_ACCOUNT; i++) {
      // Changing the e-mail's case does not make it another account.
      const email = i % 2 ? victim.email.toUpperCase() : victim.email;
      expect((await login(email, `wrong-${i}`)).status).toBe(401);
    }
    expectLimited(await login(victim.email, 'wrong-again'), ACCOUNT_WINDOW_SEC);
    expectLimited(await login(victim.email, victim.password), ACCOUNT_WINDOW_SEC);

    const bystander = await registerUser(stack);
    expect((await login(bystander.email, bystander.password)).status).toBe(200);
  });

  test('when one address tries many accounts, then its limit stops it, and other addresses still get in', async () => {
    const attacker = freshIp();
    for (let i = 0; i < PER_IP; i++) expect((await login(unknownEmail(), 'password1', attacker)).status).toBe(401);
    const someone = await registerUser(stack);
    expectLimited(await login(someone.email, someone.password, attacker), 60);
    expect((await login(someone.email, someone.password)).status).toBe(200);
  });

  test('the answer never tells whether the e-mail exists: same status and message, and the same limit', async () => {
    const known = await registerUser(stack);
    const nobody = unknownEmail();
    const wrongPassword = await login(known.email, 'not-the-password');
    const unknown = await login(nobody, 'not-the-password');
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(wrongPassword.status);
    expect(unknown.body).toEqual(wrongPassword.body);
    expect(unknown.body).toMatchObject({ code: 'invalid_credentials', error: expect.stringMatching(/\S/) });

    for (let i = 1; i < PER_ACCOUNT; i++) {
      expect((await login(known.email, 'not-the-password')).body).toEqual(
        (await login(nobody, 'not-the-password')).body,
      );
    }
    const knownLimited = await login(known.email, 'not-the-password');
    const unknownLimited = await login(nobody, 'not-the-password');
    expectLimited(knownLimited, ACCOUNT_WINDOW_SEC);
    expectLimited(unknownLimited, ACCOUNT_WINDOW_SEC);
    expect(unknownLimited.body).toEqual(knownLimited.body);
  });
});
