import { describe, expect, test } from '@jest/globals';
import { signAccessToken } from '@gpt/kit';
import { freePort, TEST_SECRETS } from '@gpt/kit/testing';
import type { FakeUser } from '@gpt/telegram-sandbox/testing';
import { eventually } from '../../../deploy/test/support/async';
import { botProcessesOnProduct } from './support/bot-process';
import { botSays, telegramUser } from './support/telegram-users';

/**
 * A broadcast through a crash (docs/bot.md, Broadcasts): the bot as its own process on the whole product,
 * its recipients answered by the real auth, killed (SIGKILL) mid-broadcast and started again. No user gets
 * the message twice; everyone gets it once but the few whose one call to Telegram the crash cut, which are
 * counted failed and never sent again.
 */
const bots = botProcessesOnProduct('bot_broadcast');
let port: number;

const admin = signAccessToken({ sub: '1', role: 'admin', ver: 0, email: 'admin@example.com' }, TEST_SECRETS.JWT_SECRET);

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as { data: { status: string; total: number; sent: number; failed: number } };
}

describe('a bot process killed mid-broadcast', () => {
  test('started again, it goes on: nobody gets the message twice, and only the calls the crash cut are missing, counted failed', async () => {
    port = await freePort();
    const bot = await bots.startBot({ PORT: String(port) });
    const source = `crash${Date.now()}`;
    const users: FakeUser[] = [];
    for (let i = 0; i < 120; i += 20) {
      const batch = Array.from({ length: 20 }, () => telegramUser());
      await Promise.all(
        batch.map((user) => {
          const mark = bots.telegram.calls.length;
          bots.telegram.sendCommand(user, `/start ${source}`);
          return botSays(bots.telegram, user.id, 'Здравствуйте', mark, 30_000);
        }),
      );
      users.push(...batch);
    }

    const created = await call('POST', '/api/admin/broadcasts', {
      content: { text: `Новости ${source}` },
      audience: { utm_source: source },
    });
    const id = (created.data as unknown as { id: number }).id;
    const sends = () =>
      bots.telegram.calls.filter((c) => c.ok && c.method === 'sendMessage' && String(c.params.text).includes(source));
    await eventually(async () => expect(sends().length).toBeGreaterThanOrEqual(40), 30_000);
    await bot.kill('SIGKILL');
    const beforeRestart = sends().length;
    expect(beforeRestart).toBeLessThan(120);
    await bot.restart();

    const done = await eventually(async () => {
      const { data } = await call('GET', `/api/admin/broadcasts/${id}`);
      expect(data.status).toBe('done');
      return data;
    }, 90_000);
    const perUser = new Map<number, number>();
    for (const c of sends()) perUser.set(Number(c.params.chat_id), (perUser.get(Number(c.params.chat_id)) ?? 0) + 1);
    expect([...perUser.values()].every((n) => n === 1)).toBe(true);
    const missing = users.filter((user) => !perUser.has(user.id)).length;
    expect(done.total).toBe(120);
    expect(done.sent + done.failed).toBe(120);
    expect(missing).toBeLessThanOrEqual(done.failed);
    expect(done.failed).toBeLessThanOrEqual(4);
  }, 240_000);
});
