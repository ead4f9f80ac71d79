import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { SandboxChat, SandboxMessage, SandboxSession, TelegramBotInfo } from '@gpt/contracts';
import { callApi, MANY_USERS_ENV, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { sandboxDecisionCall, TEST_SECRETS } from '@gpt/kit/testing';
import { loadBotConfig } from '../src/config';
import { sandboxDecision } from '../src/sandbox/telegram-sandbox';
import { FAKE_PNG } from './support/fake-openai';

/**
 * The embedded default: no Telegram token and no model API, so the bot runs on its own sandbox
 * Bot API and the sandbox model. A person's side is played through the gateway, as the site's
 * /telegram-sandbox page does.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ ...MANY_USERS_ENV, BOT_STREAM_EDIT_INTERVAL_MS: '100' });
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

/** A browser of the sandbox page: its cookie names the user it plays. */
interface User {
  cookie: string;
  user_id: number;
}

async function newUser(): Promise<User> {
  const res = await api<SandboxSession>('POST', '/api/telegram/sandbox/session', { body: { first_name: 'Песочница' } });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, user_id: res.body.user_id };
}

/** A call as the user's browser makes it, with its cookie. */
const as = <T = Record<string, unknown>>(user: User, method: string, path: string, body?: object) =>
  api<T>(method, path, { headers: { cookie: user.cookie }, ...(body ? { body } : {}) });

const chatOf = (user: User, after?: number) =>
  as<SandboxChat>(user, 'GET', `/api/telegram/sandbox/chat${after === undefined ? '' : `?after=${after}&wait=10`}`);

const send = (user: User, text: string) =>
  as<{ message_id: number }>(user, 'POST', '/api/telegram/sandbox/chat/messages', { text });

/** The bot's last message says this. */
const saying = (pattern: RegExp) => (message: SandboxMessage) => pattern.test(message.text);

/**
 * Follows the chat by long polling from `version` until the bot's last message passes `until`;
 * answers the texts that bot message showed on the way, in order, and the chat at the end.
 */
async function follow(user: User, version: number, until: (message: SandboxMessage) => boolean, timeoutMs = 20_000) {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  let after = version;
  while (Date.now() < deadline) {
    const res = await chatOf(user, after);
    expect(res.status).toBe(200);
    after = res.body.version;
    const last = res.body.messages.filter((message) => message.from === 'bot').at(-1);
    if (last && seen.at(-1) !== last.text) seen.push(last.text);
    if (last && until(last)) return { seen, chat: res.body, message: last };
  }
  throw new Error(`the bot never said what was awaited; it showed: ${JSON.stringify(seen)}`);
}

describe('the bot on its Telegram sandbox', () => {
  test('the site is told the bot is on the sandbox, and «Открыть бота» leads to the sandbox page', async () => {
    const deadline = Date.now() + 10_000;
    let info = await api<TelegramBotInfo>('GET', '/api/telegram/info');
    // The bot learns its name from the sandbox's getMe once the service listens.
    while (info.body.username === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      info = await api<TelegramBotInfo>('GET', '/api/telegram/info');
    }
    expect(info.body).toEqual({
      username: 'sandbox_gpt_bot',
      url: expect.stringMatching(/^http:\/\/localhost:\d+\/telegram-sandbox$/),
      sandbox: true,
    });
  });

  test('/start is answered with the welcome and its buttons; a button press is answered too', async () => {
    const user = await newUser();
    const empty = await chatOf(user);
    expect(empty.body).toMatchObject({ version: 0, messages: [], bot: { username: 'sandbox_gpt_bot' } });

    expect((await send(user, '/start')).status).toBe(201);
    const { message } = await follow(user, 0, saying(/Песочница/));
    expect(message.text).toMatch(/Вам в подарок 2\s000 кредитов/);
    expect(message.entities).toContainEqual(expect.objectContaining({ type: 'bold' }));
    const buttons = message.buttons.flat();
    expect(buttons).toContainEqual(expect.objectContaining({ callback_data: 'menu:balance' }));
    expect(buttons).toContainEqual(expect.objectContaining({ url: expect.stringMatching(/^http:\/\//) }));

    const before = (await chatOf(user)).body.version;
    const press = await as(user, 'POST', '/api/telegram/sandbox/chat/buttons', {
      message_id: message.message_id,
      data: 'menu:balance',
    });
    expect(press.status).toBe(200);
    const balance = await follow(user, before, (answer) => answer.message_id > message.message_id);
    expect(balance.message.text).toMatch(/кредит/);

    const unknown = await as(user, 'POST', '/api/telegram/sandbox/chat/buttons', {
      message_id: message.message_id,
      data: 'menu:nothing',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'button_not_found' });
  });

  test('/ref gives the sandbox page as the bot link, with the referral payload the page sends on «Начать»', async () => {
    const user = await newUser();
    expect((await send(user, '/start')).status).toBe(201);
    const started = await follow(user, 0, saying(/Песочница/));
    expect((await send(user, '/ref')).status).toBe(201);
    const { message } = await follow(user, started.chat.version, saying(/Пригласить друга/));
    expect(message.text).toMatch(/Ссылка на бота: http:\/\/localhost:\d+\/telegram-sandbox\?start=ref_\w+/);
    expect(message.text).not.toContain('t.me');
  });

  test('a question is answered by the sandbox model, the answer seen growing as the bot edits it', async () => {
    const user = await newUser();
    await send(user, '/start');
    await follow(user, 0, saying(/Песочница/));

    const { version } = (await chatOf(user)).body;
    expect((await send(user, 'Сколько будет два плюс два?')).status).toBe(201);
    const { seen, message } = await follow(
      user,
      version,
      (last) => /Чтобы получать настоящие ответы/.test(last.text) && !last.text.endsWith('▍'),
    );
    expect(message.text).toContain('Тестовый ответ');
    expect(message.text).toContain('Вы написали: «Сколько будет два плюс два?»');
    expect(message.edited).toBe(true);
    // The placeholder, then the answer so far with a cursor, then the whole answer.
    const answer = seen.slice(seen.indexOf('⏳ Думаю…'));
    expect(answer[0]).toBe('⏳ Думаю…');
    const partial = answer.slice(1, -1);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    for (const text of partial) {
      expect(text.endsWith(' ▍')).toBe(true);
      // The answer so far begins the whole answer (shown without its trailing line breaks, then the cursor).
      expect(message.text.startsWith(text.slice(0, -' ▍'.length))).toBe(true);
    }
  });

  test('/buy completes end to end: the pay button opens the payment sandbox, and the bot reports the payment', async () => {
    const user = await newUser();
    await send(user, '/start');
    await follow(user, 0, saying(/Песочница/));
    let { version } = (await chatOf(user)).body;
    await send(user, '/buy');
    const offer = await follow(user, version, (message) =>
      message.buttons.flat().some((b) => b.callback_data === 'pay:topup:100'),
    );
    await as(user, 'POST', '/api/telegram/sandbox/chat/buttons', {
      message_id: offer.message.message_id,
      data: 'pay:topup:100',
    });
    const ways = await follow(user, offer.chat.version, saying(/Как оплатить/));
    version = ways.chat.version;
    await as(user, 'POST', '/api/telegram/sandbox/chat/buttons', {
      message_id: ways.message.message_id,
      data: 'buy:topup:100',
    });
    const ask = await follow(user, version, saying(/e-mail/));
    await send(user, 'buyer@example.com');
    const pay = await follow(user, ask.chat.version, (message) => message.buttons.flat().some((b) => b.url));
    const url = pay.message.buttons.flat().find((b) => b.url)!.url!;
    expect(new URL(url).pathname).toMatch(/^\/payment\/sandbox\/[^/]+$/);

    const { path, body } = sandboxDecisionCall(url, 'succeeded');
    expect((await api('POST', path, { body: { decision: 'succeeded' } })).status).toBe(403);
    const decided = await api('POST', path, { body });
    expect(decided.status).toBe(200);
    const paid = await follow(user, pay.chat.version, (message) => message.message_id > pay.message.message_id);
    expect(paid.message.text).toMatch(/Оплата получена/);
  });

  test('a document goes to the bot as a Telegram file it downloads; a photo is served back as the image', async () => {
    const user = await newUser();
    await send(user, '/start');
    await follow(user, 0, saying(/Песочница/));

    const { version } = (await chatOf(user)).body;
    const document = await as(user, 'POST', '/api/telegram/sandbox/chat/uploads', {
      kind: 'document',
      file_name: 'заметка.txt',
      mime_type: 'text/plain',
      data: Buffer.from('Текст заметки про кошек').toString('base64'),
      caption: 'О чём заметка?',
    });
    expect(document.status).toBe(201);
    await follow(user, version, saying(/Чтобы получать настоящие ответы/));

    const photo = await as<{ message_id: number }>(user, 'POST', '/api/telegram/sandbox/chat/uploads', {
      kind: 'photo',
      file_name: 'cat.png',
      mime_type: 'image/png',
      data: FAKE_PNG.toString('base64'),
    });
    expect(photo.status).toBe(201);
    // The bot's answer to the photo, whatever it is, is awaited, so no handler runs on when the stack stops.
    const { chat } = await follow(
      user,
      version,
      (message) => message.message_id > photo.body.message_id && !/⏳|▍$/.test(message.text),
    );
    const sent = chat.messages.find((message) => message.message_id === photo.body.message_id);
    const image = await fetch(`${stack.url}${sent!.photo!.url}`, { headers: { cookie: user.cookie } });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(FAKE_PNG);
  });

  test('what is not a photo is refused as one, and bad input is a 400', async () => {
    const user = await newUser();
    const upload = (body: object) => as(user, 'POST', '/api/telegram/sandbox/chat/uploads', body);
    const svg = await upload({
      kind: 'photo',
      file_name: 'x.svg',
      mime_type: 'image/svg+xml',
      data: Buffer.from('<svg onload="alert(1)"/>').toString('base64'),
    });
    expect(svg.status).toBe(400);
    expect(svg.body).toMatchObject({ code: 'unsupported_image' });
    expect((await send(user, '   ')).status).toBe(400);
    expect((await as(user, 'GET', '/api/telegram/sandbox/chat?after=abc')).status).toBe(400);
    expect((await as(user, 'GET', '/api/telegram/sandbox/chat/files/nothing-here')).status).toBe(404);
  });

  // Only the bot calls its sandbox Bot API, on its own address: the gateway routes the chat's page, not the Bot API.
  test('the Bot API under the sandbox refuses a wrong token as Telegram does, and is not open through the gateway', async () => {
    const bot = stack.services.find((service) => service.name === 'bot')!;
    const res = await fetch(`${bot.url}/api/telegram/sandbox/bot1:wrong/getMe`);
    expect((await fetch(`${stack.url}/api/telegram/sandbox/bot1:wrong/getMe`)).status).toBe(404);
    expect([res.status, await res.json()]).toEqual([401, { ok: false, error_code: 401, description: 'Unauthorized' }]);
  });
});

describe('the sandbox is on only without a token, outside production, for a site on this machine', () => {
  const config = (env: Record<string, string>) => loadBotConfig({ ...TEST_SECRETS, LLM_API_URL: 'http://llm', ...env });

  test.each([
    ['no token, development, the site on loopback', {}, true],
    ['the embedded gateway on loopback', { GATEWAY_HOST: '::1' }, true],
    ['a token', { TELEGRAM_BOT_TOKEN: '123:abc' }, false],
    ['TELEGRAM_SANDBOX=false', { TELEGRAM_SANDBOX: 'false' }, false],
    ['production', { NODE_ENV: 'production', SITE_URL: 'https://example.com' }, false],
    ['the site listening beyond this machine', { HOST: '0.0.0.0' }, false],
    ['the embedded gateway beyond this machine', { GATEWAY_HOST: '0.0.0.0' }, false],
    ['beyond this machine, TELEGRAM_SANDBOX=true', { HOST: '0.0.0.0', TELEGRAM_SANDBOX: 'true' }, true],
    ['a public SITE_URL', { SITE_URL: 'https://gpt.example.com' }, false],
    [
      'a public SITE_URL, TELEGRAM_SANDBOX=true',
      { SITE_URL: 'http://203.0.113.5:8080', TELEGRAM_SANDBOX: 'true' },
      false,
    ],
  ])('%s', (_label, env, on) => {
    expect(sandboxDecision(config(env)).on).toBe(on);
  });
});
