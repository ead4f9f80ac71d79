import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { callApi, signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import { expectLimited, rawRequest, SECURITY_ENV } from './support/security';

/**
 * Password guessing through the real gateway and auth service. The gateway sits behind a proxy at
 * 127.0.0.1 here, so each request can come "from" an address of its own via X-Forwarded-For; a
 * request from another loopback address (127.0.0.2, 127.0.0.3) is a client of its own.
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

const loginVia = (email: string, password: string, ip = freshIp()) =>
  callApi(stack.url, 'POST', '/api/auth/login', { body: { email, password }, headers: { 'X-Forwarded-For': ip } });

/** A login straight from a loopback source address, with the body as raw bytes. */
const loginFrom = (from: string, body: Buffer | string, headers: Record<string, string> = {}) =>
  rawRequest(stack.url, 'POST', '/api/auth/login', { from, body, headers });

const form = (email: string, password: string) => JSON.stringify({ email, password });

describe('login brute force', () => {
  test('when a stranger fails at an account, then that stranger is stopped, and the owner from another address still gets in', async () => {
    const owner = await signUp(stack.url);
    for (let i = 0; i < PER_ACCOUNT; i++) {
      // Changing the e-mail's case does not make it another account.
      const email = i % 2 ? owner.email.toUpperCase() : owner.email;
      expect((await loginFrom('127.0.0.2', form(email, `wrong-${i}`))).status).toBe(401);
    }
    expectLimited(await loginFrom('127.0.0.2', form(owner.email, 'wrong-again')), ACCOUNT_WINDOW_SEC);
    expectLimited(await loginFrom('127.0.0.2', form(owner.email, owner.password)), ACCOUNT_WINDOW_SEC);

    const ownLogin = await loginFrom('127.0.0.3', form(owner.email, owner.password));
    expect(ownLogin.status).toBe(200);
    expect(ownLogin.body).toMatchObject({ token: expect.any(String) });
  });

  test('when one account is guessed at from many addresses, then its logins are slowed down, never locked', async () => {
    const owner = await signUp(stack.url);
    for (let i = 0; i < PER_ACCOUNT * 2; i++) expect((await loginVia(owner.email, `wrong-${i}`)).status).toBe(401);

    const started = performance.now();
    expect((await loginVia(owner.email, owner.password)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    // The owner's success starts the count over: no more waiting.
    const next = performance.now();
    expect((await loginVia(owner.email, owner.password)).status).toBe(200);
    expect(performance.now() - next).toBeLessThan(1000);
  });

  test('a login body with a UTF-8 BOM is read as auth reads it: counted against the same account', async () => {
    const owner = await signUp(stack.url);
    const from = freshIp();
    const withBom = (password: string) =>
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(form(owner.email, password))]);
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const res = await rawRequest(stack.url, 'POST', '/api/auth/login', {
        body: withBom(`wrong-${i}`),
        headers: { 'X-Forwarded-For': from },
      });
      expect(res.status).toBe(401);
    }
    expectLimited(await loginVia(owner.email, owner.password, from), ACCOUNT_WINDOW_SEC);
  });

  test('a login body in anything but UTF-8 is refused with 415 before it is counted or reaches auth', async () => {
    const owner = await signUp(stack.url);
    const utf16 = Buffer.from(`\ufeff${form(owner.email, owner.password)}`, 'utf16le');
    const bodies: [Buffer | string, Record<string, string>][] = [
      [utf16, {}],
      [utf16.subarray(2), {}],
      [
        Buffer.from(form(owner.email, owner.password), 'utf16le'),
        { 'content-type': 'application/json; charset=utf-16le' },
      ],
      [form(owner.email, owner.password), { 'content-type': 'application/json; charset=latin1' }],
    ];
    for (const [body, headers] of bodies) {
      const res = await loginFrom('127.0.0.4', body, headers);
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: 'unsupported_encoding', error: expect.stringMatching(/\S/) });
    }
  });

  test('when one address tries many accounts, then its limit stops it, and other addresses still get in', async () => {
    const attacker = freshIp();
    for (let i = 0; i < PER_IP; i++) expect((await loginVia(unknownEmail(), 'password1', attacker)).status).toBe(401);
    const someone = await signUp(stack.url);
    expectLimited(await loginVia(someone.email, someone.password, attacker), 60);
    expect((await loginVia(someone.email, someone.password)).status).toBe(200);
  });

  test('the answer never tells whether the e-mail exists: same status and message, and the same limit', async () => {
    const known = await signUp(stack.url);
    const nobody = unknownEmail();
    const [knownFrom, nobodyFrom] = [freshIp(), freshIp()];
    const attempt = (email: string, password: string) =>
      loginVia(email, password, email === nobody ? nobodyFrom : knownFrom);
    const wrongPassword = await attempt(known.email, 'not-the-password');
    const unknown = await attempt(nobody, 'not-the-password');
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(wrongPassword.status);
    expect(unknown.body).toEqual(wrongPassword.body);
    expect(unknown.body).toMatchObject({ code: 'invalid_credentials', error: expect.stringMatching(/\S/) });

    for (let i = 1; i < PER_ACCOUNT; i++) {
      expect((await attempt(known.email, 'not-the-password')).body).toEqual(
        (await attempt(nobody, 'not-the-password')).body,
      );
    }
    const knownLimited = await attempt(known.email, 'not-the-password');
    const unknownLimited = await attempt(nobody, 'not-the-password');
    expectLimited(knownLimited, ACCOUNT_WINDOW_SEC);
    expectLimited(unknownLimited, ACCOUNT_WINDOW_SEC);
    expect(unknownLimited.body).toEqual(knownLimited.body);
  });
});
