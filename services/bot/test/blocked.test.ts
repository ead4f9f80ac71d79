import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort, seenWithin } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { balanceOf, startBotStack, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';

/**
 * A user who blocked the bot (Telegram answers 403 «Forbidden: bot was blocked by the user"): the bot
 * stops writing to them at the first refusal — no retries, no notices — and the admin users list shows
 * it, until they write again (docs/architecture.md, The bot).
 */
let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());

const { say, reply, startedUser } = conversations(() => bot);
const serviceOf = (name: string) => bot.stack.services.find((service) => service.name === name)!;

/** The user's row of the admin users list (the newest users come first). */
async function adminRow(telegramId: number) {
  const res = await bot.api<{
    users: { telegram_id: number | null; telegram_blocked_at: string | null }[];
  }>('GET', '/api/admin/users?limit=50', { token: bot.adminToken });
  expect(res.status).toBe(200);
  return res.body.users.find((user) => user.telegram_id === telegramId)!;
}

/** The bot's own record of the chat. */
async function chatRow(telegramId: number) {
  const { rows } = await sql<{
    blocked_at: Date | null;
    blocked_unreported: boolean;
  }>`
    select blocked_at, blocked_unreported from chats where telegram_id = ${telegramId}`.execute(
    serviceOf('bot').deps.db,
  );
  return rows[0]!;
}

/** The user's answers the bot has in progress. */
async function answersInProgress(telegramId: number) {
  const { rows } = await sql<{ count: string }>`
    select count(*) as count from generations where telegram_id = ${telegramId}`.execute(serviceOf('bot').deps.db);
  return Number(rows[0]!.count);
}

/** Billing announces a succeeded top-up of the user, as after a card payment. */
async function paymentSucceeded(userId: number, paymentId: string) {
  const { bus } = serviceOf('billing').deps;
  const handled = serviceOf('bot').deps.bus.waitFor(
    'acked',
    (event) => event.type === 'payment.succeeded' && (event.data as { payment_id: string }).payment_id === paymentId,
  );
  await bus.transaction((trx) =>
    bus.publish(trx, 'payment.succeeded', {
      payment_id: paymentId,
      yookassa_payment_id: `yk-${paymentId}`,
      telegram_payment_charge_id: null,
      user_id: userId,
      kind: 'topup',
      tariff_id: null,
      amount: '100.00',
      currency: 'RUB',
      provider: 'yookassa',
      star_amount: null,
      credits_amount: 1000,
      succeeded_at: new Date().toISOString(),
    }),
  );
  await handled;
}

describe('a user who blocked the bot', () => {
  test('one refused edit mid-answer, then nothing reaches Telegram (no retries, no payment notice); auth marks them until they write again', async () => {
    const { telegram, openai } = bot;
    const { user, userId } = await startedUser(10_000);
    const toChat = (since: number) =>
      telegram.calls.slice(since).filter((call) => Number(call.params.chat_id) === user.id);

    // The answer is streaming when the user blocks the bot.
    openai.slow(250);
    await reply(user, 'Ответ', say(user, 'Расскажи длинную историю о том, как пользователь заблокировал бота'));
    const blockedFrom = telegram.calls.length;
    telegram.blockBot(user.id);

    const marked = await seenWithin(
      20_000,
      () => adminRow(user.id),
      (row) => row.telegram_blocked_at !== null,
    );
    expect(Date.parse(marked.telegram_blocked_at!)).toBeLessThanOrEqual(Date.now());
    // The answer ends (no longer in progress) without another word to the chat.
    await seenWithin(
      30_000,
      () => answersInProgress(user.id),
      (count) => count === 0,
    );
    openai.slow(0);
    // The answer that could not be delivered holds nothing and costs nothing.
    const settled = await seenWithin(
      10_000,
      () => balanceOf(bot, user.id),
      (balance) => balance.held_credits === 0,
    );
    expect(settled.credits).toBe(10_000);
    expect(toChat(blockedFrom).map((call) => [call.method, call.error?.error_code])).toEqual([
      [expect.stringMatching(/^(editMessageText|sendMessage|sendChatAction)$/), 403],
    ]);
    await seenWithin(
      5_000,
      () => chatRow(user.id),
      (chat) => chat.blocked_at !== null && !chat.blocked_unreported,
    );

    await paymentSucceeded(userId, `blocked-${user.id}`);

    // Unblocked and writing again: the mark goes, here and in auth, and the bot answers.
    telegram.unblockBot(user.id);
    await reply(user, 'Ответ на: Я снова здесь', say(user, 'Я снова здесь'));
    expect(toChat(blockedFrom).filter((call) => String(call.params.text ?? '').includes('Оплата получена'))).toEqual(
      [],
    );
    await seenWithin(
      10_000,
      () => adminRow(user.id),
      (row) => row.telegram_blocked_at === null,
    );
    await seenWithin(
      5_000,
      () => chatRow(user.id),
      (chat) => chat.blocked_at === null && !chat.blocked_unreported,
    );

    // A notice now reaches them.
    const mark = telegram.calls.length;
    await paymentSucceeded(userId, `unblocked-${user.id}`);
    await reply(user, 'Оплата получена', mark);
  }, 120_000);

  test('auth down when Telegram refuses: the mark is kept as not yet told, and auth gets it once it is back', async () => {
    const { telegram } = bot;
    const { user, userId } = await startedUser(0);
    const config = serviceOf('bot').deps.config as { AUTH_URL?: string };
    const authUrl = config.AUTH_URL;
    // Nothing listens there: auth is down for the bot.
    config.AUTH_URL = `http://127.0.0.1:${await freePort()}`;
    try {
      telegram.blockBot(user.id);
      const mark = telegram.calls.length;
      await paymentSucceeded(userId, `auth-down-${user.id}`);
      await seenWithin(
        10_000,
        () => chatRow(user.id),
        (chat) => chat.blocked_at !== null && chat.blocked_unreported,
      );
      expect(telegram.calls.slice(mark).filter((call) => Number(call.params.chat_id) === user.id)).toHaveLength(1);
      expect((await adminRow(user.id)).telegram_blocked_at).toBeNull();
    } finally {
      config.AUTH_URL = authUrl;
    }
    // Sent again by the bot's next round (every 30 s).
    await seenWithin(
      45_000,
      () => adminRow(user.id),
      (row) => row.telegram_blocked_at !== null,
    );
    await seenWithin(
      5_000,
      () => chatRow(user.id),
      (chat) => !chat.blocked_unreported,
    );
  }, 90_000);
});
