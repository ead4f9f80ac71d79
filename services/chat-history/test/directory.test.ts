import type { AdminHistoryResponse, HistoryMessage } from '@gpt/contracts';
import { deadLetterQueueOf, serviceQueue } from '@gpt/kit';
import { createEvent, testInfra } from '@gpt/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import amqp from 'amqplib';
import { type Harness, nextNumber, startHarness } from './support/chat-history';

let h: Harness;
let model: string;

beforeAll(async () => {
  h = await startHarness();
  model = (await h.createModel()).model;
});
afterAll(() => h.close());

const record = (telegramId: number | null | undefined, extra: Record<string, unknown> = {}) =>
  h.send<HistoryMessage & { code: string }>(
    'POST',
    '/api/bot/messages',
    { telegram_id: telegramId ?? undefined, model, user_message: 'hi', input_tokens: 1, output_tokens: 1, ...extra },
    h.bot,
  );

const historyOf = (userId: number) =>
  h.get<AdminHistoryResponse>(`/api/admin/history?userId=${userId}&limit=100`).then((res) => res.body);

describe('user.registered / user.updated', () => {
  test('when a user registers, then the bot can record by their telegram_id and the history shows their names', async () => {
    const user = await h.registerUser({ first_name: 'Пётр', last_name: 'Петров' });
    const res = await record(user.telegram_id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_id: user.user_id, username: user.username, first_name: 'Пётр' });
  });

  test('when a newer snapshot arrives, then names change; an older one arriving late is ignored', async () => {
    const user = await h.registerUser();
    const snapshot = { ...user, updated_at: new Date().toISOString() };
    await h.deliver('user.updated', { ...snapshot, username: 'renamed', version: 2 });
    await h.deliver('user.updated', { ...snapshot, username: 'stale', version: 1 });
    const res = await record(user.telegram_id);
    expect(res.body.username).toBe('renamed');
  });

  test('when the same event is delivered twice, then it takes effect once', async () => {
    const user = await h.registerUser();
    const update = { ...user, username: 'first-delivery', version: 1, updated_at: new Date().toISOString() };
    const id = crypto.randomUUID();
    await h.deliver('user.updated', update, { id });
    // A newer change in between; a redelivery of the old event must not undo it.
    await h.deliver('user.updated', { ...update, username: 'newer', version: 2 });
    await h.deliver('user.updated', update, { id });
    expect((await record(user.telegram_id)).body.username).toBe('newer');
  });

  test('when the site username is empty, then the Telegram username is shown', async () => {
    const user = await h.registerUser({ username: null, telegram_username: `tg_only_${nextNumber()}` });
    expect((await record(user.telegram_id)).body.username).toBe(user.telegram_username);
  });

  test('when another user takes over a Telegram id, then the bot records for the new holder', async () => {
    const first = await h.registerUser();
    const second = await h.registerUser({ telegram_id: first.telegram_id, version: 3 });
    expect((await record(first.telegram_id)).body.user_id).toBe(second.user_id);
  });

  test('when a poisoned event arrives, then it is dead-lettered and later events still flow', async () => {
    const queue = serviceQueue('chat-history', h.service.deps.config.AMQP_EXCHANGE);
    const dead = h.service.deps.bus.waitFor('dead-lettered', (e) => e.type === 'user.registered' && e.id === 'bad-1');
    await h.deliverRaw(
      'user.registered',
      JSON.stringify({ ...createEvent('user.registered', 'auth', (await h.registerUser()) as never), id: 'bad-1' }),
    );
    await dead;
    const connection = await amqp.connect(testInfra.amqpUrl);
    try {
      const channel = await connection.createChannel();
      expect((await channel.checkQueue(deadLetterQueueOf(queue))).messageCount).toBeGreaterThanOrEqual(1);
    } finally {
      await connection.close();
    }
    expect((await record((await h.registerUser()).telegram_id)).status).toBe(201);
  });
});

describe('user.deleted', () => {
  test('when a user is deleted, then their messages stay, shown as deleted, and their telegram_id no longer resolves', async () => {
    const user = await h.registerUser();
    const message = (await record(user.telegram_id)).body;
    await h.deliver('user.deleted', {
      user_id: user.user_id,
      email: user.email,
      deleted_at: new Date().toISOString(),
      version: 1,
    });
    const history = await historyOf(user.user_id);
    expect(history.total).toBe(1);
    expect(history.history[0]).toMatchObject({
      id: message.id,
      user_deleted: true,
      username: user.username,
      first_name: user.first_name,
    });
    const again = await record(user.telegram_id);
    expect(again.status).toBe(404);
    expect((await record(undefined, { user_id: user.user_id })).status).toBe(404);
  });

  test('when a late snapshot of a deleted user arrives, then the user stays deleted', async () => {
    const user = await h.registerUser();
    await record(user.telegram_id);
    await h.deliver('user.deleted', {
      user_id: user.user_id,
      email: null,
      deleted_at: new Date().toISOString(),
      version: 2,
    });
    await h.deliver('user.updated', { ...user, version: 5, updated_at: new Date().toISOString() });
    expect((await historyOf(user.user_id)).history[0]?.user_deleted).toBe(true);
    expect((await record(user.telegram_id)).status).toBe(404);
  });
});

describe('accounts.linked', () => {
  test('when a Telegram-only account merges into a web account, then its messages move and the Telegram id resolves to the web account', async () => {
    const web = await h.registerUser({ telegram_id: null, telegram_username: null, source: 'web' });
    const telegram = await h.registerUser();
    const before = [(await record(telegram.telegram_id)).body, (await record(telegram.telegram_id)).body];
    await h.deliver('accounts.linked', {
      user_id: web.user_id,
      merged_user_id: telegram.user_id,
      telegram_id: telegram.telegram_id!,
      linked_at: new Date().toISOString(),
    });
    const moved = await historyOf(web.user_id);
    expect(moved.history.map((m) => m.id).sort()).toEqual(before.map((m) => m.id).sort());
    expect(moved.history.every((m) => m.username === web.username)).toBe(true);
    expect((await historyOf(telegram.user_id)).total).toBe(0);

    const after = await record(telegram.telegram_id);
    expect(after.body.user_id).toBe(web.user_id);
    // The bot may still name the merged account by its old id.
    expect((await record(undefined, { user_id: telegram.user_id })).body.user_id).toBe(web.user_id);
  });

  test('when a Telegram account links with nothing to merge, then it resolves to the web account at once', async () => {
    const web = await h.registerUser({ telegram_id: null, source: 'web' });
    const telegramId = 8_000_000_000 + nextNumber();
    await h.deliver('accounts.linked', {
      user_id: web.user_id,
      merged_user_id: null,
      telegram_id: telegramId,
      linked_at: new Date().toISOString(),
    });
    expect((await record(telegramId)).body.user_id).toBe(web.user_id);
  });

  test('when the link is delivered twice, then messages are moved once and nothing breaks', async () => {
    const web = await h.registerUser({ telegram_id: null, source: 'web' });
    const telegram = await h.registerUser();
    await record(telegram.telegram_id);
    const link = {
      user_id: web.user_id,
      merged_user_id: telegram.user_id,
      telegram_id: telegram.telegram_id!,
      linked_at: new Date().toISOString(),
    };
    const id = crypto.randomUUID();
    await h.deliver('accounts.linked', link, { id });
    await h.deliver('accounts.linked', link, { id });
    expect((await historyOf(web.user_id)).total).toBe(1);
  });
});
