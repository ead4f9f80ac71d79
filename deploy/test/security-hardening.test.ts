import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { loadAuthConfig } from '@gpt/auth';
import { loadBillingConfig, YOOKASSA_PUBLISHED_IPS } from '@gpt/billing';
import { callApi, MANY_USERS_ENV, signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { loadGatewayConfig } from '@gpt/gateway';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import { eventually } from './support/async';
import { freePort } from '@gpt/kit/testing';
import { BOT_KEY, expectLimited, JWT_SECRET, login, rawRequest, type Session } from './support/security';

/**
 * Hardening through the real gateway and services: absolute URLs from SITE_URL alone, per-user limits
 * on password changes and payments, CSV formulas, HSTS, YooKassa's addresses, bot-supplied names.
 * The stack sits behind a proxy at 127.0.0.1 and keeps the default per-user limits.
 */
/** The stack's SITE_URL: unset, so the default, the gateway's own address on a port chosen up front. */
let SITE_URL: string;
const EVIL_HOST = 'evil.example';
const PASSWORD_CHANGES = 5;
const PAYMENTS = 10;

let stack: TestStack;
let admin: Session;

beforeAll(async () => {
  const port = await freePort();
  SITE_URL = `http://localhost:${port}`;
  stack = await startTestStack({
    ...MANY_USERS_ENV,
    JWT_SECRET,
    BOT_API_KEY: BOT_KEY,
    TRUST_PROXY: '127.0.0.1',
    PORT: String(port),
  });
  admin = await login(stack, stack.admin.email, stack.admin.password);
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);
/** A page or file asked for with a Host header of the attacker's choosing. */
const withEvilHost = (path: string) => rawRequest(stack.url, 'GET', path, { headers: { host: EVIL_HOST } });
const freshTelegramId = () => randomInt(1_000_000, 2 ** 47);

const pay = (session: Session, headers: Record<string, string> = {}) =>
  api<{ confirmation_url: string }>('POST', '/api/billing/payments', {
    token: session.token,
    body: { amount: '100.00' },
    headers,
  });

/**
 * A new user's first payment, repeated while billing has not yet heard of the user (auth's event
 * may still be on its way: 503); resolves to the answer and the attempts it took.
 */
async function firstPayment(session: Session, headers: Record<string, string> = {}) {
  let attempts = 0;
  const res = await eventually(
    async () => {
      attempts++;
      const answer = await pay(session, headers);
      expect(answer.status).toBe(201);
      return answer;
      // Seldom: each attempt counts against the user's payment allowance.
    },
    10_000,
    1000,
  );
  return { res, attempts };
}

describe('absolute URLs come from SITE_URL only (here unset: the gateway’s own address)', () => {
  test('robots.txt and the sitemap ignore the Host header', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const res = await withEvilHost(path);
      expect(res.status).toBe(200);
      expect(String(res.body)).toContain(SITE_URL);
      expect(String(res.body)).not.toContain(EVIL_HOST);
    }
  });

  test('an article page’s canonical link and og:url ignore the Host header', async () => {
    const slug = uniqueName('hardening').replace(/_/g, '-');
    const created = await api('POST', '/api/admin/articles', {
      token: admin.token,
      body: { title: 'Статья', slug, content: '<p>Текст</p>', status: 'published' },
    });
    expect(created.status).toBe(201);
    const page = String((await withEvilHost(`/articles/${slug}`)).body);
    expect(page).toContain(`<link rel="canonical" href="${SITE_URL}/articles/${slug}"`);
    expect(page).toContain(`<meta property="og:url" content="${SITE_URL}/articles/${slug}"`);
    expect(page).not.toContain(EVIL_HOST);
  });

  test('the Telegram link and the payment’s confirmation page start with SITE_URL', async () => {
    const telegramId = freshTelegramId();
    const bot = { botKey: BOT_KEY };
    expect((await api('POST', '/api/bot/users', { ...bot, body: { telegram_id: telegramId } })).status).toBe(200);
    const link = await api<{ url: string }>('POST', '/api/bot/link-tokens', {
      ...bot,
      body: { telegram_id: telegramId },
    });
    expect(link.body.url).toMatch(new RegExp(`^${SITE_URL}/link/`));

    const { res: payment } = await firstPayment(await signUp(stack.url), { host: EVIL_HOST });
    expect(payment.body.confirmation_url).toMatch(new RegExp(`^${SITE_URL}/`));
  });

  test('production refuses to start without SITE_URL; elsewhere it is the local gateway', () => {
    const production = {
      ...TEST_SECRETS,
      NODE_ENV: 'production',
      ADMIN_EMAIL: 'admin@example.ru',
      ADMIN_PASSWORD: 'secret-password',
      YOOKASSA_SHOP_ID: '1',
      YOOKASSA_SECRET_KEY: 'key',
    };
    for (const load of [loadGatewayConfig, loadAuthConfig, loadBillingConfig]) {
      expect(() => load(production)).toThrow(/SITE_URL: is required in production/);
    }
    expect(loadGatewayConfig({ ...TEST_SECRETS, PORT: '9999' }).SITE_URL).toBe('http://localhost:9999');
    expect(loadAuthConfig(TEST_SECRETS).SITE_URL).toBe('http://localhost:8080');
  });
});

describe('sensitive calls are throttled per user', () => {
  test('guesses at the current password: after the allowance 429 with Retry-After, even for the right one', async () => {
    const user = await signUp(stack.url);
    const change = (currentPassword: string) =>
      api('POST', '/api/auth/change-password', {
        token: user.token,
        body: { currentPassword, newPassword: 'password2' },
      });
    for (let i = 0; i < PASSWORD_CHANGES; i++) expect((await change(`guess-${i}`)).status).toBe(400);
    expectLimited(await change(user.password), 900);

    const other = await signUp(stack.url);
    const otherChange = await api('POST', '/api/auth/change-password', {
      token: other.token,
      body: { currentPassword: other.password, newPassword: 'password2' },
    });
    expect(otherChange.status).toBe(200);
  });

  test('payment creation: after the allowance 429 with Retry-After for that user only', async () => {
    const user = await signUp(stack.url);
    const { attempts } = await firstPayment(user);
    for (let i = attempts; i < PAYMENTS; i++) expect((await pay(user)).status).toBe(201);
    expectLimited(await pay(user), 600);
    await firstPayment(await signUp(stack.url));
  });
});

describe('smaller ones', () => {
  test('the CSV export neutralises formulas behind spaces and in full-width signs', async () => {
    const model = await api<{ model: { model: string } }>('POST', '/api/admin/models', {
      token: admin.token,
      body: { model: uniqueName('csv-model'), input_price_per_1m: '1', output_price_per_1m: '1' },
    });
    expect(model.status).toBe(201);
    const telegramId = freshTelegramId();
    const username = uniqueName('csv');
    await api('POST', '/api/bot/users', { botKey: BOT_KEY, body: { telegram_id: telegramId, username } });
    const formulas = [' =1+1', '\u3000=1+1', '＝1+1', '＋1', '－1', '＠SUM(A1)', '  +cmd|calc'];
    for (const text of formulas) {
      // Chat-history learns of the new user from auth's event.
      await eventually(async () => {
        const res = await api('POST', '/api/bot/messages', {
          botKey: BOT_KEY,
          body: {
            telegram_id: telegramId,
            model: model.body.model.model,
            user_message: text,
            bot_response: 'ok',
            input_tokens: 1,
            output_tokens: 1,
          },
        });
        expect(res.status).toBe(201);
      }, 10_000);
    }
    const csv = await api<string>('GET', `/api/admin/history/export?username=${username}`, { token: admin.token });
    expect(csv.status).toBe(200);
    const [head, ...rows] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const column = head!.split(',').indexOf('user_message');
    const cells = rows.map((line) => line.split(',')[column]);
    expect(cells.sort()).toEqual(formulas.map((text) => `'${text}`).sort());
  });

  test('HSTS is sent only when a trusted proxy says the request came over HTTPS', async () => {
    const hsts = async (options: Parameters<typeof rawRequest>[3]) =>
      (await rawRequest(stack.url, 'GET', '/api/healthz', options)).headers.get('strict-transport-security');
    expect(await hsts({})).toBeNull();
    expect(await hsts({ headers: { 'x-forwarded-proto': 'https' } })).toMatch(/max-age=31536000/);
    // Not from the trusted proxy: a client's own claim counts for nothing.
    expect(await hsts({ from: '127.0.0.2', headers: { 'x-forwarded-proto': 'https' } })).toBeNull();
  });

  test('in production, YooKassa notifications are accepted only from its published addresses unless told otherwise', () => {
    const production = {
      ...TEST_SECRETS,
      NODE_ENV: 'production',
      SITE_URL: 'https://gpt.example.ru',
      YOOKASSA_SHOP_ID: '1',
      YOOKASSA_SECRET_KEY: 'key',
    };
    expect(loadBillingConfig(production).YOOKASSA_TRUSTED_IPS).toEqual(YOOKASSA_PUBLISHED_IPS);
    expect(YOOKASSA_PUBLISHED_IPS).toContain('185.71.76.0/27');
    expect(loadBillingConfig({ ...production, YOOKASSA_TRUSTED_IPS: '10.1.2.3' }).YOOKASSA_TRUSTED_IPS).toEqual([
      '10.1.2.3',
    ]);
    expect(loadBillingConfig(TEST_SECRETS).YOOKASSA_TRUSTED_IPS).toEqual([]);
  });

  test('bot-supplied names lose their bidirectional control characters, as articles do', async () => {
    const names = {
      username: `evil\u202Egnp_${randomInt(1e9)}`,
      first_name: 'Ив\u2066ан\u200F',
      last_name: '\u202BПетров',
    };
    const res = await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: freshTelegramId(), ...names },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      username: names.username.replace('\u202E', ''),
      first_name: 'Иван',
      last_name: 'Петров',
    });
  });
});
