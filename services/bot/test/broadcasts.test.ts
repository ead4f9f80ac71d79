import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { BroadcastAudience, BroadcastResponse, CreateBroadcastRequest } from '@gpt/contracts';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { signAccessToken } from '@gpt/kit';
import { seenWithin, TEST_SECRETS } from '@gpt/kit/testing';
import type { FakeUser, RecordedCall } from '@gpt/telegram-sandbox/testing';
import { sql } from 'kysely';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * Broadcasts (docs/bot.md, Broadcasts) against the Telegram sandbox with its flood limits on, ten times
 * as fast as Telegram on both sides (TELEGRAM_TEST_SPEEDUP): the set rate in any second, 429 honoured,
 * blocked users marked and never retried, a restart mid-way sending nobody twice, opted-out users and
 * other segments left alone, and a question asked meanwhile answered at once.
 */
const SPEEDUP = 10;
/** broadcast_messages_per_second in these tests: 50 a (real) second at the tests' pace. */
const RATE = 5;

let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness({ BOT_BROADCAST_RETRY_SEC: '1' });
  bot.services.settingsValues.broadcast_messages_per_second = String(RATE);
});
afterAll(() => bot?.close());

const { say, reply, startedUser, press } = conversations(() => bot);

const adminToken = signAccessToken(
  { sub: '1', role: 'admin', ver: 0, email: 'admin@example.com' },
  TEST_SECRETS.JWT_SECRET,
);
const userToken = signAccessToken({ sub: '2', role: 'user', ver: 0 }, TEST_SECRETS.JWT_SECRET);

/** The bot service's own HTTP route, as the gateway would call it. */
async function call(
  method: string,
  path: string,
  body?: unknown,
  token = adminToken,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${bot.bot.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const audience = (fields: Partial<BroadcastAudience> = {}): BroadcastAudience => ({
  tariff_ids: null,
  paid: null,
  active_within_days: null,
  inactive_for_days: null,
  balance_below: null,
  linked: null,
  utm_source: null,
  tariff_ends_within_days: null,
  ...fields,
});

async function createBroadcast(text: string, who: BroadcastAudience, extra: Partial<CreateBroadcastRequest> = {}) {
  const { status, body } = await call('POST', '/api/admin/broadcasts', {
    content: { text, photo_url: null, button: null },
    audience: who,
    send_at: null,
    ...extra,
  });
  expect(status).toBe(201);
  return (body as BroadcastResponse).data;
}

const figures = async (id: number) =>
  (await call('GET', `/api/admin/broadcasts/${id}`)).body.data as BroadcastResponse['data'];
const finished = (id: number, withinMs = 60_000) =>
  seenWithin(
    withinMs,
    () => figures(id),
    (broadcast) => broadcast.status === 'done',
  );

/** Users who pressed /start with a campaign's payload (their UTM source), `count` of them, a few at a time. */
async function campaign(source: string, count: number): Promise<FakeUser[]> {
  const users: FakeUser[] = [];
  for (let i = 0; i < count; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, () => startedUser(0, {}, `/start ${source}`)),
    );
    users.push(...batch.map(({ user }) => user));
  }
  return users;
}

/** The successful sends of a broadcast's text. */
const sendsOf = (marker: string) =>
  bot.telegram.calls.filter(
    (c: RecordedCall) => c.ok && c.method === 'sendMessage' && String(c.params.text ?? '').includes(marker),
  );

describe('a broadcast to a segment', () => {
  test('300 recipients get it once each at no more than the set rate in any second, a 429 midway is waited out, a question meanwhile gets its placeholder at once, opted-out users and other segments get nothing', async () => {
    const segment = await campaign('spring', 300);
    const optedOut = await campaign('spring', 10);
    for (const user of optedOut) bot.services.account(user.id).news = false;
    const others = await campaign('autumn', 10);
    const asker = (await startedUser(10_000)).user;

    expect(
      (await call('POST', '/api/admin/broadcasts/count', { audience: audience({ utm_source: 'spring' }) })).body,
    ).toEqual({
      recipients: 300,
    });
    const broadcast = await createBroadcast('**Весна**: новая модель! spring-300', audience({ utm_source: 'spring' }));

    // Midway: a user asks a question, then Telegram answers a message with 429 and retry_after 1.
    await seenWithin(
      20_000,
      async () => sendsOf('spring-300').length,
      (n) => n >= 100,
    );
    const asked = Date.now();
    await reply(asker, /./, say(asker, 'Сколько будет 2+2?'));
    const placeholderMs = Date.now() - asked;
    bot.telegram.failNext('sendMessage', { error_code: 429, retry_after: 1 });

    const done = await finished(broadcast.id);
    expect(done).toMatchObject({ total: 300, sent: 300, blocked: 0, failed: 0, left: 0 });

    const sends = sendsOf('spring-300');
    expect(new Set(sends.map((c) => Number(c.params.chat_id)))).toEqual(new Set(segment.map((user) => user.id)));
    expect(sends).toHaveLength(300);
    // The set rate (×SPEEDUP here) in any one-second window, measured where Telegram got them.
    const times = sends.map((c) => c.at).sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 1000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(RATE * SPEEDUP);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(1000);
    // The 429: Telegram refuses every message until its retry_after has passed; the broadcast waited, so
    // only the few calls already on their way when the 429 came back met that wait (the set pace would be 50).
    const refused = bot.telegram.calls.find(
      (c) => c.error?.error_code === 429 && String(c.params.text).includes('spring-300'),
    )!;
    expect(refused).toBeDefined();
    const tried = bot.telegram.calls.filter(
      (c) =>
        c.method === 'sendMessage' &&
        String(c.params.text).includes('spring-300') &&
        c.at > refused.at &&
        c.at < refused.at + 1000,
    );
    expect(tried.length).toBeLessThan((RATE * SPEEDUP) / 5);
    expect(placeholderMs).toBeLessThan(2000);

    for (const user of [...optedOut, ...others])
      expect(
        bot.telegram.calls.some(
          (c) => c.ok && Number(c.params.chat_id) === user.id && String(c.params.text).includes('spring-300'),
        ),
      ).toBe(false);
    // Every message says how to stop them.
    expect(String(sends[0]!.params.text)).toContain('/settings');
  }, 120_000);

  test('users who blocked the bot are marked once, counted and never tried again; the next count leaves them out', async () => {
    const users = await campaign('blocked', 40);
    const blocked = users.slice(0, 20);
    for (const user of blocked) bot.telegram.blockBot(user.id);
    const broadcast = await createBroadcast('Акция blocked-40', audience({ utm_source: 'blocked' }));
    expect(await finished(broadcast.id)).toMatchObject({ total: 40, sent: 20, blocked: 20, failed: 0, left: 0 });

    const { rows } = await sql<{ n: string }>`
      select count(*) as n from chats where blocked_at is not null and telegram_id in (${sql.join(blocked.map((u) => u.id))})`.execute(
      bot.bot.deps.db,
    );
    expect(Number(rows[0]!.n)).toBe(20);
    await seenWithin(10_000, async () => blocked.every((user) => bot.services.account(user.id).blocked), Boolean);
    const tries = bot.telegram.calls.filter(
      (c) => c.method === 'sendMessage' && String(c.params.text).includes('blocked-40'),
    );
    expect(tries).toHaveLength(40);
    expect(
      (await call('POST', '/api/admin/broadcasts/count', { audience: audience({ utm_source: 'blocked' }) })).body,
    ).toEqual({
      recipients: 20,
    });
  }, 60_000);

  test('the bot stopped mid-broadcast and started again: every recipient has exactly one message, the rest go on', async () => {
    const users = await campaign('restart', 200);
    const broadcast = await createBroadcast('Новости restart-200', audience({ utm_source: 'restart' }));
    await seenWithin(
      20_000,
      async () => sendsOf('restart-200').length,
      (n) => n >= 50,
    );
    await bot.restart();
    expect(sendsOf('restart-200').length).toBeLessThan(200);
    expect(await finished(broadcast.id)).toMatchObject({ total: 200, sent: 200, failed: 0, left: 0 });
    const perUser = new Map<number, number>();
    for (const c of sendsOf('restart-200'))
      perUser.set(Number(c.params.chat_id), (perUser.get(Number(c.params.chat_id)) ?? 0) + 1);
    expect(users.every((user) => perUser.get(user.id) === 1)).toBe(true);
    expect(perUser.size).toBe(200);
  }, 120_000);

  test('pause holds it, resume goes on where it stopped, cancel ends it; the history shows who sent each', async () => {
    await campaign('steer', 60);
    const broadcast = await createBroadcast('Пауза steer-60', audience({ utm_source: 'steer' }), {
      send_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(broadcast).toMatchObject({ status: 'scheduled', total: null, created_by: { name: 'admin@example.com' } });
    expect((await call('POST', `/api/admin/broadcasts/${broadcast.id}/resume`)).status).toBe(409);
    const paused = await call('POST', `/api/admin/broadcasts/${broadcast.id}/pause`, undefined, adminToken, {
      'Idempotency-Key': 'pause-1',
    });
    expect(paused.body.data).toMatchObject({ status: 'paused' });
    expect(
      (
        await call('POST', `/api/admin/broadcasts/${broadcast.id}/pause`, undefined, adminToken, {
          'Idempotency-Key': 'pause-1',
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', `/api/admin/broadcasts/${broadcast.id}/resume`)).body.data).toMatchObject({
      status: 'scheduled',
    });
    expect((await call('POST', `/api/admin/broadcasts/${broadcast.id}/cancel`)).body.data).toMatchObject({
      status: 'canceled',
    });
    expect(sendsOf('steer-60')).toHaveLength(0);

    const history = await call('GET', '/api/admin/broadcasts?limit=50');
    const rows = history.body.data as BroadcastResponse['data'][];
    expect(rows[0]).toMatchObject({
      id: broadcast.id,
      status: 'canceled',
      created_by: { id: 1, name: 'admin@example.com' },
    });
    expect(rows.find((row) => String(row.content.text).includes('spring-300'))).toMatchObject({
      sent: 300,
      status: 'done',
    });
  }, 60_000);
});

describe('the admin routes', () => {
  test('admins only; bad input is refused in Russian; every route is in the OpenAPI document', async () => {
    expect((await call('GET', '/api/admin/broadcasts', undefined, userToken)).status).toBe(403);
    expect((await call('POST', '/api/admin/broadcasts/count', { audience: audience() }, '')).status).toBe(401);
    const empty = await call('POST', '/api/admin/broadcasts', { content: { text: '' }, audience: audience() });
    expect(empty.status).toBe(400);
    expect(String(empty.body.error)).toMatch(/Текст рассылки обязателен/);
    const badButton = await call('POST', '/api/admin/broadcasts/preview', {
      text: 'Привет',
      button: { kind: 'url', text: 'Сайт', url: 'javascript:alert(1)' },
    });
    expect(badButton.status).toBe(400);
    expect(String(badButton.body.error)).toMatch(/Ссылка кнопки: ожидается ссылка/);
    const longCaption = await call('POST', '/api/admin/broadcasts/preview', {
      text: 'а'.repeat(1000),
      photo_url: 'https://example.com/a.jpg',
    });
    expect(longCaption.status).toBe(400);
    expect(String(longCaption.body.error)).toMatch(/С фото текст — не длиннее/);
    expect((await call('GET', '/api/admin/broadcasts/999999')).status).toBe(404);

    const preview = await call('POST', '/api/admin/broadcasts/preview', {
      text: '**Скидка** 20% на [Premium](https://example.com/p)',
      button: { kind: 'top_up' },
    });
    expect(preview.body).toMatchObject({
      html: expect.stringContaining('<b>Скидка</b> 20% на <a href="https://example.com/p">Premium</a>'),
      button: { text: '💳 Пополнить', url: null },
    });

    const paths = Object.keys(buildOpenApiDocument().paths ?? {});
    for (const path of [
      '/api/admin/broadcasts',
      '/api/admin/broadcasts/count',
      '/api/admin/broadcasts/preview',
      '/api/admin/broadcasts/test',
      '/api/admin/broadcasts/{id}',
      '/api/admin/broadcasts/{id}/pause',
      '/api/admin/broadcasts/{id}/resume',
      '/api/admin/broadcasts/{id}/cancel',
    ])
      expect(paths).toContain(path);
  });

  test('«Отправить мне» sends the message with its photo and button to the admin’s own Telegram, or says to link it first', async () => {
    const content = {
      text: 'Проверка *себе*',
      photo_url: 'https://example.com/promo.jpg',
      button: { kind: 'url', text: 'Подробнее', url: 'https://example.com/promo' },
    };
    const unlinked = await call('POST', '/api/admin/broadcasts/test', content);
    expect(unlinked.status).toBe(409);
    expect(String(unlinked.body.error)).toMatch(/привяжите свой Telegram/);

    const { user } = await startedUser(0);
    bot.services.adminTelegramId = user.id;
    const mark = bot.telegram.calls.length;
    expect((await call('POST', '/api/admin/broadcasts/test', content)).body).toEqual({ telegram_id: user.id });
    const photo = await bot.telegram.waitFor(
      'sendPhoto',
      (c) => Number(c.params.chat_id) === user.id && bot.telegram.calls.indexOf(c) >= mark,
    );
    expect(String(photo.params.caption)).toContain('Проверка <i>себе</i>');
    expect(photo.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Подробнее', url: 'https://example.com/promo' }]],
    });
  });
});

describe('«Новости и акции» in /settings', () => {
  test('turning them off and on again, and the «Открыть чат» button of a broadcast', async () => {
    const { user } = await startedUser(0);
    await reply(user, 'Новости и акции: включены', say(user, '/settings'));
    await reply(user, 'Новости и акции выключены', press(user, 'Настройки', 'news:off'));
    expect(bot.services.account(user.id).news).toBe(false);
    await reply(user, 'Новости и акции включены', press(user, 'выключены', 'news:on'));
    expect(bot.services.account(user.id).news).toBe(true);

    bot.services.adminTelegramId = user.id;
    const content = { text: 'Новая модель open-chat', button: { kind: 'open_chat' } };
    expect((await call('POST', '/api/admin/broadcasts/test', content)).status).toBe(200);
    await reply(user, 'open-chat', 0);
    await reply(user, 'Напишите вопрос', press(user, 'open-chat', 'menu:chat'));
  });
});
