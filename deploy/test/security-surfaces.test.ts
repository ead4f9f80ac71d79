import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { SandboxChat, SandboxSession } from '@gpt/contracts';
import { callApi, setWelcomeCredits, signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { sandboxDecisionCall } from '@gpt/kit/testing';
import { eventually } from './support/async';
import { BOT_KEY, expectLimited, login, rawRequest, SECURITY_ENV, type Session } from './support/security';

/**
 * The surfaces added with the bot, through the real gateway and services: the Telegram sandbox (whose
 * user a browser plays, its limits and memory), multipart bodies cut or spoiled, password recovery
 * guesses, the bot's payments, file names with line breaks. Limits here are the defaults unless said.
 */
const SANDBOX_LIMITS = {
  TELEGRAM_SANDBOX_MAX_USERS: '6',
  TELEGRAM_SANDBOX_ACTIONS_PER_MINUTE: '8',
  TELEGRAM_SANDBOX_READS_PER_MINUTE: '30',
  TELEGRAM_SANDBOX_MAX_FILE_BYTES: String(1_500_000),
};
const PAYMENTS = 10;
const RESET_CONFIRMS_PER_ADDRESS = 10;
const RESET_CONFIRMS_PER_TOKEN = 5;

let stack: TestStack;
let admin: Session;

beforeAll(async () => {
  stack = await startTestStack({
    ...SECURITY_ENV,
    ...SANDBOX_LIMITS,
    RATE_LIMIT_PAYMENT_POINTS: String(PAYMENTS),
    RATE_LIMIT_PASSWORD_RESET_CONFIRM_POINTS: String(RESET_CONFIRMS_PER_ADDRESS),
    PASSWORD_RESET_CONFIRM_PER_TOKEN_POINTS: String(RESET_CONFIRMS_PER_TOKEN),
  });
  await setWelcomeCredits(stack, 0);
  admin = await login(stack, stack.admin.email, stack.admin.password);
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);
const alive = async () => expect((await api('GET', '/api/healthz')).status).toBe(200);
const RUSSIAN = /[а-яё]/i;

// ── The Telegram sandbox ──────────────────────────────────────────────────────────────────────────

/** A browser on the sandbox page: the cookie the server gave it names its user. */
interface Browser {
  cookie: string;
  user_id: number;
}

const openSandbox = () => api<SandboxSession>('POST', '/api/telegram/sandbox/session', { body: {} });

async function newBrowser(): Promise<Browser> {
  const res = await openSandbox();
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Strict/i);
  return { cookie: setCookie.split(';')[0]!, user_id: res.body.user_id };
}

const as = <T = Record<string, unknown>>(browser: Browser | null, method: string, path: string, body?: object) =>
  api<T>(method, path, { ...(browser ? { headers: { cookie: browser.cookie } } : {}), ...(body ? { body } : {}) });

const upload = (browser: Browser, file_name: string, bytes: Buffer) =>
  as<{ message_id: number }>(browser, 'POST', '/api/telegram/sandbox/chat/uploads', {
    kind: 'document',
    file_name,
    mime_type: 'application/octet-stream',
    data: bytes.toString('base64'),
  });

/** The sandbox's download address of the document in this message of the browser's chat. */
async function documentUrl(browser: Browser, messageId: number): Promise<string> {
  const chat = await as<SandboxChat>(browser, 'GET', '/api/telegram/sandbox/chat');
  return chat.body.messages.find((message) => message.message_id === messageId)!.document!.url;
}

describe('the Telegram sandbox belongs to the browser that opened it', () => {
  let alice: Browser;
  let bob: Browser;

  beforeAll(async () => {
    alice = await newBrowser();
    bob = await newBrowser();
  });

  test('without its cookie, or with a made-up one, nothing of the sandbox answers: 401 with the Russian message', async () => {
    const forged = { cookie: `tg_sandbox=${randomBytes(32).toString('base64url')}`, user_id: 0 };
    for (const browser of [null, forged]) {
      for (const [method, path, body] of [
        ['GET', '/api/telegram/sandbox/chat'],
        ['POST', '/api/telegram/sandbox/chat/messages', { text: '/start' }],
        ['POST', '/api/telegram/sandbox/chat/buttons', { message_id: 1, data: 'menu:balance' }],
        ['GET', '/api/telegram/sandbox/chat/files/BQACAgIAAxkx'],
      ] as const) {
        const res = await as(browser, method, path, body);
        expect([path, res.status, res.body]).toEqual([
          path,
          401,
          expect.objectContaining({ code: 'sandbox_session_required', error: expect.stringMatching(RUSSIAN) }),
        ]);
      }
    }
  });

  test('a browser acts and reads only as its own user: a user_id it names is ignored', async () => {
    const sent = await as<{ message_id: number }>(alice, 'POST', '/api/telegram/sandbox/chat/messages', {
      text: 'секрет Алисы',
      user_id: bob.user_id,
    });
    expect(sent.status).toBe(201);
    const bobsChat = await as<SandboxChat>(bob, 'GET', `/api/telegram/sandbox/chat?user_id=${alice.user_id}`);
    expect(bobsChat.status).toBe(200);
    expect(JSON.stringify(bobsChat.body.messages)).not.toContain('секрет Алисы');
    const alicesChat = await as<SandboxChat>(alice, 'GET', '/api/telegram/sandbox/chat');
    expect(alicesChat.body.messages.map((message) => message.text)).toContain('секрет Алисы');
    // Opening the page again is the same user, not a new one.
    const again = await as<SandboxSession>(alice, 'POST', '/api/telegram/sandbox/session', {});
    expect(again.body.user_id).toBe(alice.user_id);
  });

  test('a file is served to the browser whose chat it is in, never to another', async () => {
    const sent = await upload(alice, 'отчёт "итог".bin', Buffer.from('данные Алисы'));
    expect(sent.status).toBe(201);
    const url = await documentUrl(alice, sent.body.message_id);
    const own = await fetch(`${stack.url}${url}`, { headers: { cookie: alice.cookie } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/octet-stream');
    expect(own.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(Buffer.from(await own.arrayBuffer()).toString()).toBe('данные Алисы');
    expect((await fetch(`${stack.url}${url}`, { headers: { cookie: bob.cookie } })).status).toBe(404);
  });

  test('a file name with a line break or another control character is refused with a Russian message', async () => {
    for (const name of ['a\r\nSet-Cookie: x=1.txt', 'tab\there.txt', 'nul\u0000.txt', 'line\u2028sep.txt']) {
      const res = await upload(alice, name, Buffer.from('x'));
      expect([name, res.status, res.body]).toEqual([
        name,
        400,
        expect.objectContaining({ error: expect.stringMatching(/управляющих символов|нулевой символ/) }),
      ]);
    }
    await alive();
  });

  test('the sandbox keeps files within its memory bound: the oldest is dropped, never held', async () => {
    const carol = await newBrowser();
    const big = () => randomBytes(600_000);
    const first = await upload(carol, 'first.bin', big());
    const firstUrl = await documentUrl(carol, first.body.message_id);
    await upload(carol, 'second.bin', big());
    const third = await upload(carol, 'third.bin', big());
    expect(third.status).toBe(201);
    const get = (url: string) => fetch(`${stack.url}${url}`, { headers: { cookie: carol.cookie } });
    expect((await get(firstUrl)).status).toBe(404);
    expect((await get(await documentUrl(carol, third.body.message_id))).status).toBe(200);
  });

  test('a browser’s actions and chat reads are limited per minute (429)', async () => {
    const dave = await newBrowser();
    const actions = [];
    for (let i = 0; i <= Number(SANDBOX_LIMITS.TELEGRAM_SANDBOX_ACTIONS_PER_MINUTE); i++)
      actions.push(await as(dave, 'POST', '/api/telegram/sandbox/chat/messages', { text: '/help' }));
    expect(actions.slice(0, -1).every((res) => res.status === 201)).toBe(true);
    expectLimited(actions.at(-1)!, 60);

    const reads = [];
    for (let i = 0; i <= Number(SANDBOX_LIMITS.TELEGRAM_SANDBOX_READS_PER_MINUTE); i++)
      reads.push(await as(dave, 'GET', '/api/telegram/sandbox/chat'));
    expect(reads.slice(0, -1).every((res) => res.status === 200)).toBe(true);
    expectLimited(reads.at(-1)!, 60);
  });

  test('60 new sandbox users at once: at most the per-minute allowance is made, the oldest users are forgotten', async () => {
    const opened = await Promise.all(Array.from({ length: 60 }, () => openSandbox()));
    const made = opened.filter((res) => res.status === 200).length;
    expect(made).toBeLessThanOrEqual(10);
    for (const res of opened.filter((answer) => answer.status !== 200)) {
      expectLimited(res, 60);
      expect((res.body as unknown as { error: string }).error).toMatch(RUSSIAN);
    }
    // Nobody has become an account: a sandbox user is registered only by its own /start.
    const users = await api<{ total: number }>('GET', '/api/admin/users?limit=1', { token: admin.token });
    expect(users.body.total).toBeLessThan(10);
    // Past TELEGRAM_SANDBOX_MAX_USERS the least recently seen user is forgotten with its chat.
    if (made + 4 > Number(SANDBOX_LIMITS.TELEGRAM_SANDBOX_MAX_USERS)) {
      expect((await as(bob, 'GET', '/api/telegram/sandbox/chat')).status).toBe(401);
    }
    await alive();
  });
});

describe('POST /api/billing/sandbox/payments/{id}/decision', () => {
  test('only with the key of the payer’s link, or as the signed-in payer: anyone else gets 403', async () => {
    const payer = await signUp(stack.url);
    const created = await eventually(async () => {
      const res = await api<{ confirmation_url: string }>('POST', '/api/billing/payments', {
        token: payer.token,
        body: { amount: '100.00' },
      });
      expect(res.status).toBe(201);
      return res.body;
    }, 10_000);
    const { path, body } = sandboxDecisionCall(created.confirmation_url, 'succeeded');
    const stranger = await signUp(stack.url);
    for (const options of [
      { body: { decision: 'succeeded' } },
      { body: { decision: 'succeeded', key: 'A'.repeat(43) } },
      { body: { decision: 'succeeded' }, token: stranger.token },
    ]) {
      const res = await api('POST', path, options);
      expect(res).toMatchObject({ status: 403, body: { code: 'sandbox_payment_forbidden' } });
    }
    expect((await api('POST', path, { body })).status).toBe(200);
  });
});

// ── Multipart bodies ──────────────────────────────────────────────────────────────────────────────

const BOUNDARY = 'XyZ0123boundary';
const PNG_START = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const part = (headers: string) => `--${BOUNDARY}\r\n${headers}\r\n\r\n`;
/** Multipart bodies a careless or hostile client sends. */
const MALFORMED: Array<[string, string, Buffer | string]> = [
  [
    'a file part with no closing boundary',
    `multipart/form-data; boundary=${BOUNDARY}`,
    Buffer.concat([
      Buffer.from(part('Content-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png')),
      PNG_START,
    ]),
  ],
  [
    'a text field with no closing boundary',
    `multipart/form-data; boundary=${BOUNDARY}`,
    `${part('Content-Disposition: form-data; name="payload"')}{"telegram_id":1`,
  ],
  ['headers cut in the middle', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Dispos`],
  ['no boundary in the header', 'multipart/form-data', part('Content-Disposition: form-data; name="image"')],
  ['another boundary in the body', `multipart/form-data; boundary=${BOUNDARY}`, '--other\r\n\r\nx\r\n--other--'],
  ['an empty body', `multipart/form-data; boundary=${BOUNDARY}`, ''],
  ['plain garbage', `multipart/form-data; boundary=${BOUNDARY}`, randomBytes(2048)],
  [
    'a part without Content-Disposition, unclosed',
    `multipart/form-data; boundary=${BOUNDARY}`,
    `${part('Content-Type: image/png')}xxxx`,
  ],
];

describe.each([
  ['POST /api/admin/article_media', () => ({ authorization: `Bearer ${admin.token}` })],
  ['POST /api/bot/messages', () => ({ 'x-bot-key': BOT_KEY })],
])('%s with a spoiled multipart body', (route, headers) => {
  test.each(MALFORMED)('%s: 400 with a Russian message, and the product keeps running', async (_shape, type, body) => {
    const res = await rawRequest(stack.url, 'POST', route.split(' ')[1]!, {
      headers: { ...headers(), 'content-type': type },
      body,
    });
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(RUSSIAN);
    await alive();
  });
});

// ── Password recovery guesses ─────────────────────────────────────────────────────────────────────

describe('POST /api/auth/password-reset/confirm', () => {
  const guess = (token: string, from: string) =>
    rawRequest(stack.url, 'POST', '/api/auth/password-reset/confirm', {
      from,
      body: JSON.stringify({ token, newPassword: 'newpassword1' }),
    });
  const randomToken = () => randomBytes(32).toString('base64url');

  test('random tokens from one address: the address is stopped after its allowance (429)', async () => {
    const answers = [];
    for (let i = 0; i <= RESET_CONFIRMS_PER_ADDRESS; i++) answers.push(await guess(randomToken(), '127.0.0.2'));
    expect(answers.slice(0, -1).every((res) => res.status === 404)).toBe(true);
    expectLimited(answers.at(-1)!, 900);
  });

  test('tokens of one prefix from many addresses: the prefix is stopped after its allowance (429)', async () => {
    const prefix = randomToken().slice(0, 8);
    const answers = [];
    for (let i = 0; i <= RESET_CONFIRMS_PER_TOKEN; i++)
      answers.push(await guess(prefix + randomToken().slice(8), `127.0.1.${10 + i}`));
    expect(answers.slice(0, -1).every((res) => res.status === 404)).toBe(true);
    expectLimited(answers.at(-1)!, 900);
    expect((answers.at(-1)!.body as { error: string }).error).toMatch(RUSSIAN);
  });
});

// ── The bot's payments ────────────────────────────────────────────────────────────────────────────

describe('POST /api/bot/payments', () => {
  test(`the same limit per user as the site: ${PAYMENTS} payments, then 429`, async () => {
    const telegramId = randomInt(1_000_000, 2 ** 47);
    await api('POST', '/api/bot/users', { botKey: BOT_KEY, body: { telegram_id: telegramId } });
    const pay = () =>
      api('POST', '/api/bot/payments', {
        botKey: BOT_KEY,
        body: { telegram_id: telegramId, amount: '100.00', email: 'payer@example.com' },
      });
    // Billing learns the user from auth's event: the first payment waits for it.
    await eventually(async () => expect((await pay()).status).toBe(201), 10_000, 1000);
    const answers = [];
    for (let i = 1; i <= PAYMENTS; i++) answers.push(await pay());
    expect(answers.slice(0, -1).every((res) => res.status === 201)).toBe(true);
    expectLimited(answers.at(-1)!, 600);
  });
});
