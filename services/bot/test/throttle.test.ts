import { createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { autoRetry } from '@grammyjs/auto-retry';
import { Api, type Context } from 'grammy';
import {
  startFakeTelegram,
  TELEGRAM_FLOOD_LIMITS,
  type FakeTelegram,
  type FakeUser,
  type RecordedCall,
} from '@gpt/telegram-sandbox/testing';
import {
  asBroadcast,
  asPreview,
  firstReplyFirst,
  priorityThrottler,
  type ThrottleLimits,
} from '../src/telegram/throttle';

/**
 * The bot's throttler in front of the fake Telegram Bot API, through grammY's own Api and auto-retry as
 * the bot installs them, on real timers. Limits smaller than Telegram's keep the runs short.
 */
let telegram: FakeTelegram;
let nextUser = 6_000_000;

beforeAll(async () => {
  // Telegram's flood limits, but for the setup's burst: it makes up to 45 chats with a message each at once.
  telegram = await startFakeTelegram({ floodLimits: { ...TELEGRAM_FLOOD_LIMITS, totalBurst: 100 } });
});
afterAll(async () => {
  await telegram.close();
});

/** When the throttler let each call go, and to which chat (recorded under it, before the trip to the fake). */
type Dispatch = { chat: unknown; at: number };

function throttledApi(limits: ThrottleLimits, dispatched: Dispatch[] = []): Api {
  const api = new Api(telegram.token, { apiRoot: telegram.apiUrl });
  api.config.use((prev, method, payload, signal) => {
    dispatched.push({ chat: (payload as { chat_id?: unknown }).chat_id, at: Date.now() });
    return prev(method, payload, signal);
  });
  api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
  api.config.use(priorityThrottler(limits));
  return api;
}

/** Users who have started the bot (so their chats exist), each with one message of the bot to edit. */
async function usersWithMessages(count: number): Promise<{ user: FakeUser; messageId: number }[]> {
  const plain = new Api(telegram.token, { apiRoot: telegram.apiUrl });
  return Promise.all(
    Array.from({ length: count }, async () => {
      const user: FakeUser = { id: nextUser++, first_name: 'Пользователь' };
      telegram.sendCommand(user, '/start');
      const { message_id } = await plain.sendMessage(user.id, '⏳ Думаю…');
      return { user, messageId: message_id };
    }),
  );
}

const callsSince = (mark: number, chats: number[]): RecordedCall[] =>
  telegram.calls.slice(mark).filter((call) => chats.includes(Number(call.params.chat_id)));

/** Resolves once `ready()` holds (checked every few milliseconds, for at most 5 s). */
async function until(ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('the awaited call never came');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const textsOf = (calls: RecordedCall[]) => calls.map((call) => call.params.text);

describe('priorityThrottler', () => {
  test('placeholders of new chats go before the previews other chats queued earlier', async () => {
    const limits = { perSecond: 5, privateChatMs: 1000, groupChatMs: 3000 };
    const api = throttledApi(limits);
    const streaming = await usersWithMessages(20);
    const arriving = await usersWithMessages(10);
    const mark = telegram.calls.length;

    const previews = streaming.map(({ user, messageId }) =>
      asPreview(() => api.editMessageText(user.id, messageId, 'Начало ответа ▍')),
    );
    const placeholders = arriving.map(({ user }) => api.sendMessage(user.id, '⏳ Думаю…'));
    await Promise.all([...previews, ...placeholders]);

    const record = callsSince(
      mark,
      [...streaming, ...arriving].map(({ user }) => user.id),
    );
    expect(record).toHaveLength(30);
    const lastPlaceholder = record.findLastIndex((call) => call.method === 'sendMessage');
    const previewsFirst = record.slice(0, lastPlaceholder).filter((call) => call.method === 'editMessageText');
    // Only the previews sent before any placeholder was asked for (the window was empty) came first.
    expect(previewsFirst.length).toBeLessThanOrEqual(limits.perSecond);
    expect(record.every((call) => call.ok)).toBe(true);
  }, 30_000);

  test("an update's first reply goes before other chats' final edits and notices queued earlier", async () => {
    const limits = { perSecond: 4, privateChatMs: 1000, groupChatMs: 3000 };
    const api = throttledApi(limits);
    const answered = await usersWithMessages(12);
    const [newcomer] = await usersWithMessages(1);
    const mark = telegram.calls.length;

    const finals = answered.map(({ user, messageId }) => api.editMessageText(user.id, messageId, 'Ответ.'));
    // As the bot handles an update: the first message to the chat is its sign of life, what follows is not.
    const handled = firstReplyFirst({} as Context, async () => {
      await api.sendMessage(newcomer!.user.id, '⏳ Думаю…');
      await api.sendMessage(newcomer!.user.id, 'Продолжение');
    });
    await Promise.all([...finals, handled]);

    const record = callsSince(
      mark,
      [...answered, newcomer!].map(({ user }) => user.id),
    );
    const placeholderAt = record.findIndex((call) => call.params.text === '⏳ Думаю…');
    const continuationAt = record.findIndex((call) => call.params.text === 'Продолжение');
    // Only the edits sent before it was asked for (the window was empty) went first; its follow-up waited its turn.
    expect(placeholderAt).toBeLessThanOrEqual(limits.perSecond);
    expect(continuationAt).toBe(record.length - 1);
  }, 30_000);

  test('broadcast messages go evenly at their rate, and a question asked meanwhile has its placeholder sent first', async () => {
    const limits = { perSecond: 12, privateChatMs: 1000, groupChatMs: 3000 };
    const dispatched: Dispatch[] = [];
    const api = throttledApi(limits, dispatched);
    const recipients = await usersWithMessages(16);
    const [asker] = await usersWithMessages(1);
    const mark = telegram.calls.length;

    const broadcast = recipients.map(({ user }) => asBroadcast(8, () => api.sendMessage(user.id, 'Новости')));
    await until(() => dispatched.length >= 4);
    const dispatchedWhenAsked = dispatched.length;
    await firstReplyFirst({} as Context, async () => {
      await api.sendMessage(asker!.user.id, '⏳ Думаю…');
    });
    await Promise.all(broadcast);

    const sent = dispatched.filter((call) => recipients.some(({ user }) => user.id === call.chat)).map((c) => c.at);
    expect(sent).toHaveLength(16);
    // 8 a second, evenly: each a good 125 ms after the one before (the clock read a millisecond or so apart).
    for (let i = 1; i < sent.length; i++) expect(sent[i]! - sent[i - 1]!).toBeGreaterThanOrEqual(125 - 5);
    // The question's placeholder did not wait for the broadcast's turn: it went out before the broadcast's next
    // message (or the one already at the gate), however slow the machine.
    const placeholderAt = dispatched.findIndex((call) => call.chat === asker!.user.id);
    expect(placeholderAt).toBeGreaterThanOrEqual(dispatchedWhenAsked);
    expect(placeholderAt).toBeLessThanOrEqual(dispatchedWhenAsked + 1);
    expect(callsSince(mark, [asker!.user.id])).toHaveLength(1);
  }, 30_000);

  test('no more calls than the limit in any second, one a second per chat', async () => {
    const limits = { perSecond: 20, privateChatMs: 400, groupChatMs: 1200 };
    const dispatched: Dispatch[] = [];
    const api = throttledApi(limits, dispatched);
    const people = await usersWithMessages(15);
    const mark = telegram.calls.length;
    await Promise.all(people.flatMap(({ user }) => [1, 2, 3].map((n) => api.sendMessage(user.id, `Сообщение ${n}`))));

    const record = callsSince(
      mark,
      people.map(({ user }) => user.id),
    );
    expect(record).toHaveLength(45);
    const times = dispatched.map((call) => call.at);
    expect(times).toHaveLength(45);
    // Any 21 consecutive calls span a second at least (the throttler read its clock a millisecond or so before this).
    for (let i = limits.perSecond; i < times.length; i++)
      expect(times[i]! - times[i - limits.perSecond]!).toBeGreaterThanOrEqual(1000 - 5);
    for (const { user } of people) {
      expect(textsOf(record.filter((call) => call.params.chat_id === user.id))).toEqual([
        'Сообщение 1',
        'Сообщение 2',
        'Сообщение 3',
      ]);
      const mine = dispatched.filter((call) => call.chat === user.id);
      for (let i = 1; i < mine.length; i++)
        expect(mine[i]!.at - mine[i - 1]!.at).toBeGreaterThanOrEqual(limits.privateChatMs - 5);
    }
  }, 30_000);

  test('a newer preview replaces the queued one, and the final edit drops what is still queued', async () => {
    const api = throttledApi({ perSecond: 30, privateChatMs: 1000, groupChatMs: 3000 });
    const { user, messageId } = (await usersWithMessages(1))[0]!;
    const mark = telegram.calls.length;

    const preview = (text: string) => asPreview(() => api.editMessageText(user.id, messageId, text));
    const first = preview('Один ▍');
    const replaced = preview('Один два ▍');
    const newest = preview('Один два три ▍');
    expect(await first).toMatchObject({ text: 'Один ▍' });
    // The replaced preview resolves with what its replacement got from Telegram.
    expect(await replaced).toEqual(await newest);
    expect(textsOf(callsSince(mark, [user.id]))).toEqual(['Один ▍', 'Один два три ▍']);

    const dropped = preview('Один два три четыре ▍');
    const final = api.editMessageText(user.id, messageId, 'Один два три четыре пять.');
    expect(await dropped).toBe(true);
    expect(await final).toMatchObject({ text: 'Один два три четыре пять.' });
    expect(textsOf(callsSince(mark, [user.id]))).toEqual(['Один ▍', 'Один два три ▍', 'Один два три четыре пять.']);
    expect(telegram.chatLog(user.id).at(-1)?.text).toBe('Один два три четыре пять.');
  }, 30_000);

  test('a preview retried after a 429 still lands before the final edit, which stays the last text', async () => {
    const api = throttledApi({ perSecond: 30, privateChatMs: 100, groupChatMs: 300 });
    const { user, messageId } = (await usersWithMessages(1))[0]!;
    const mark = telegram.calls.length;
    telegram.failNext('editMessageText', { error_code: 429, retry_after: 1 });

    const preview = asPreview(() => api.editMessageText(user.id, messageId, 'Почти ▍'));
    await until(() => callsSince(mark, [user.id]).some((call) => !call.ok));
    const final = api.editMessageText(user.id, messageId, 'Готово.');
    await Promise.all([preview, final]);

    const edits = callsSince(mark, [user.id]).map((call) => [call.params.text, call.ok]);
    expect(edits).toEqual([
      ['Почти ▍', false],
      ['Почти ▍', true],
      ['Готово.', true],
    ]);
    expect(telegram.chatLog(user.id).at(-1)?.text).toBe('Готово.');
  }, 30_000);

  test('chat actions are dropped while messages wait, and calls naming no chat are never held', async () => {
    const api = throttledApi({ perSecond: 2, privateChatMs: 1000, groupChatMs: 3000 });
    const people = await usersWithMessages(4);
    const mark = telegram.calls.length;
    const messages = people.map(({ user }) => api.sendMessage(user.id, 'Привет'));
    expect(await api.sendChatAction(people[0]!.user.id, 'typing')).toBe(true);
    const started = Date.now();
    await api.getMe();
    expect(Date.now() - started).toBeLessThan(500);
    await Promise.all(messages);
    const record = callsSince(
      mark,
      people.map(({ user }) => user.id),
    );
    expect(record.map((call) => call.method)).toEqual(['sendMessage', 'sendMessage', 'sendMessage', 'sendMessage']);
  }, 30_000);

  test('while the second is full, it sleeps until there is room again instead of waking every millisecond', async () => {
    const limits = { perSecond: 5, privateChatMs: 100, groupChatMs: 300 };
    const api = throttledApi(limits);
    const people = await usersWithMessages(20);
    // Every timer this process starts meanwhile: the throttler's wake-ups, and each call's own (grammY's timeout…).
    let timers = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'Timeout') timers += 1;
      },
    }).enable();
    try {
      await Promise.all(people.map(({ user }) => api.sendMessage(user.id, 'Сообщение')));
    } finally {
      hook.disable();
    }
    // 20 chats ready at once at 5 calls a second: about 3 s of a full window, when a wake-up can send nothing.
    expect(timers).toBeLessThan(20 * 10);
  }, 30_000);
});
