import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort } from '@gpt/kit/testing';
import { eventually } from './support/async';
import { npmStart as start, type Started, stop } from './support/npm-start';

let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-'));
  port = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** `npm start` as a newcomer runs it: no server URLs at all. */
const npmStart = () => start({ PORT: String(port), DATA_DIR: dataDir });

/** Where a service of the embedded process listens for its peers, as its start logs it (the log may lag the banner). */
function listeningPort(started: Started, service: string): Promise<number> {
  return eventually(async () => {
    const line = started
      .output()
      .split('\n')
      .find((entry) => entry.includes(`"msg":"${service} listening"`));
    if (!line) throw new Error(`${service} has not logged its address`);
    return Number(new URL((JSON.parse(line) as { url: string }).url).port);
  }, 10_000);
}

/** Open TCP connections (ESTABLISHED) with `port` at either end, from the kernel's own table. */
async function connectionsOf(port: number): Promise<number> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of (await readFile(table, 'utf8')).split('\n').slice(1)) {
      const [, local, remote, state] = row.trim().split(/\s+/);
      if (state === '01' && (local?.endsWith(`:${hex}`) || remote?.endsWith(`:${hex}`))) count += 1;
    }
  }
  return count;
}

interface Answer {
  status: number;
  type: string | null;
  body: unknown;
}

async function answer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('npm start with no URLs set (embedded default)', () => {
  test('serves the site and a healthy API, and a second start keeps the data', async () => {
    const first = await npmStart();
    try {
      expect(first.output()).toContain(`The site is at http://localhost:${port}`);
      // The password is in the message only, not also in a redacted field. (Other lines may be redacted:
      // the bot's calls to the sandbox name the bot's token in their URLs.)
      const adminLine = first
        .output()
        .split('\n')
        .find((line) => line.includes('Development admin:'));
      expect(adminLine).toContain('Development admin: admin@example.com / admin12345');
      expect(adminLine).not.toContain('REDACTED');
      const health = await fetch(`http://127.0.0.1:${port}/api/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: 'ok',
        services: { auth: 'ok', content: 'ok', billing: 'ok', 'chat-history': 'ok', metrics: 'ok' },
      });
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.headers.get('content-type')).toContain('text/html');
      expect(await home.text()).toContain('<div id="root">');
      const tariffs = (await (await fetch(`http://127.0.0.1:${port}/api/tariffs`)).json()) as { tariffs: unknown[] };
      expect(tariffs.tariffs).toHaveLength(3);
    } finally {
      expect(await stop(first)).toBe(0);
    }

    const second = await npmStart();
    try {
      // Same data: nothing migrated, seeded or created again.
      expect(second.output()).not.toContain('migration applied');
      expect(second.output()).not.toContain('default tariffs created');
      expect(second.output()).not.toContain('admin created');
      const tariffs = (await (await fetch(`http://127.0.0.1:${port}/api/tariffs`)).json()) as { tariffs: unknown[] };
      expect(tariffs.tariffs).toHaveLength(3);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 120_000);

  test('the gateway hands requests to the services in process: no loopback connection, the same answers, data kept', async () => {
    const site = `http://127.0.0.1:${port}`;
    const email = `embedded-${Date.now()}@example.com`;
    const first = await npmStart();
    try {
      const content = await listeningPort(first, 'content');
      const auth = await listeningPort(first, 'auth');
      // Twenty reads at once through the gateway: a proxy would hold connections to content's port now.
      const reads = await Promise.all(Array.from({ length: 20 }, () => answer(`${site}/api/articles?page=1&limit=12`)));
      expect(reads.every((read) => read.status === 200)).toBe(true);
      expect(await connectionsOf(content)).toBe(0);

      const registered = await answer(`${site}/api/auth/register`, json({ email, password: 'password1' }));
      expect(registered.status).toBe(201);
      const { token } = registered.body as { token: string };

      // The answers of the multi-process mode: what the gateway says itself, and each service's own
      // answer, which a proxy relays as it is (asked here straight at the service's port).
      expect(await answer(`${site}/api/auth/profile`)).toEqual({
        status: 401,
        type: 'application/json; charset=utf-8',
        body: { error: 'Требуется авторизация', code: 'unauthorized' },
      });
      expect(await answer(`${site}/api/admin/users`, { headers: { authorization: `Bearer ${token}` } })).toEqual({
        status: 403,
        type: 'application/json; charset=utf-8',
        body: { error: 'Недостаточно прав', code: 'forbidden' },
      });
      const wrongPassword = json({ email, password: 'wrong-password' });
      const refused = await answer(`${site}/api/auth/login`, wrongPassword);
      expect(refused).toEqual(await answer(`http://127.0.0.1:${auth}/api/auth/login`, wrongPassword));
      expect(refused).toMatchObject({ status: 401, body: { error: 'Неверный email или пароль' } });
      const missing = await answer(`${site}/api/articles/no-such-article`);
      expect(missing).toEqual(await answer(`http://127.0.0.1:${content}/api/articles/no-such-article`));
      expect(missing).toMatchObject({ status: 404, body: { error: 'Статья не найдена' } });
      // A query string and a body reach the service as sent.
      const page = await answer(`${site}/api/articles?page=2&limit=1`);
      expect(page.body).toMatchObject({ pagination: { page: 2, limit: 1 } });
    } finally {
      expect(await stop(first)).toBe(0);
    }
    // Every service in one cluster, a schema each; beside it the mail kept without SMTP_URL (the sign-up's link).
    expect((await readdir(dataDir)).filter((entry) => entry !== 'secrets.json').sort()).toEqual(['mail', 'pglite']);

    const second = await npmStart();
    try {
      const login = await answer(`${site}/api/auth/login`, json({ email, password: 'password1' }));
      expect(login.status).toBe(200);
      const profile = await answer(`${site}/api/auth/profile`, {
        headers: { authorization: `Bearer ${(login.body as { token: string }).token}` },
      });
      expect(profile.body).toMatchObject({ email });
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 180_000);
  // Every service shares one database session here: a consumer's transaction that waited on another
  // service (the bot's low-balance check reads chat-history's settings) held them all until it timed out.
  test('the sandbox bot answers /start and a question at once, its consumers never holding the others', async () => {
    const started = await npmStart();
    const base = `http://127.0.0.1:${port}/api/telegram/sandbox`;
    try {
      // Said at start (the log may lag the banner).
      await eventually(
        async () => expect(started.output()).toMatch(/Telegram sandbox on at http:\/\/localhost:\d+\/telegram-sandbox/),
        10_000,
      );
      const session = await fetch(`${base}/session`, json({ first_name: 'Вера' }));
      expect(session.status).toBe(200);
      // The sandbox's user is the one behind the cookie the server set, never one the page names.
      const headers = { 'content-type': 'application/json', cookie: session.headers.get('set-cookie')!.split(';')[0]! };
      const say = (text: string) =>
        fetch(`${base}/chat/messages`, { method: 'POST', headers, body: JSON.stringify({ text }) });
      const botSays = async (pattern: RegExp) =>
        eventually(async () => {
          const chat = (await (await fetch(`${base}/chat`, { headers })).json()) as {
            messages: { from: string; text: string }[];
          };
          const said = chat.messages.filter((message) => message.from === 'bot').map((message) => message.text);
          expect(said.join('\n')).not.toContain('Сервис временно недоступен');
          expect(said.at(-1)).toMatch(pattern);
        }, 8_000);
      expect((await say('/start')).status).toBe(201);
      await botSays(/^Здравствуйте, Вера!/);
      expect((await say('Сколько будет 2+2?')).status).toBe(201);
      await botSays(/Вы написали: «Сколько будет 2\+2\?»/);
      expect((await say('/balance')).status).toBe(201);
      await botSays(/^💰 Доступно: 1\s9\d\d\sкредитов/);
    } finally {
      expect(await stop(started)).toBe(0);
    }
  }, 120_000);

  test('an upload cut short (no closing boundary) is a 400, and the process keeps running', async () => {
    const started = await npmStart();
    const site = `http://127.0.0.1:${port}`;
    let exited = false;
    started.child.once('exit', () => (exited = true));
    try {
      const login = await answer(
        `${site}/api/auth/login`,
        json({ email: 'admin@example.com', password: 'admin12345' }),
      );
      const boundary = 'cutShortBoundary';
      const cut = await answer(`${site}/api/admin/article_media`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${(login.body as { token: string }).token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
      });
      expect(cut).toMatchObject({
        status: 400,
        body: { code: 'invalid_multipart', error: expect.stringMatching(/[а-я]/) },
      });
      expect((await fetch(`${site}/api/healthz`)).status).toBe(200);
      expect(exited).toBe(false);
    } finally {
      if (!exited) expect(await stop(started)).toBe(0);
    }
  }, 120_000);
});
