import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { seenWithin } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * A user who blocked the bot (Telegram answers 403 «Forbidden: bot was blocked by the user"): the bot
 * stops writing to them at the first refusal — no retries, no notices — and tells auth, until they
 * write again (docs/architecture.md, The bot). That auth shows the mark in the admin users list is
 * auth's test.
 */
let bot: BotHarness;
beforeAll(async () => {
  // Marks auth could not take are sent again every second instead of every half minute.
  bot = await startBotHarness({ BOT_BLOCKED_REPORT_INTERVAL_SEC: '1' });
});
afterAll(() => bot?.close());

const { say, reply, startedUser } = conversations(() => bot);

/** Waits until auth holds the user as having blocked the bot, or as not. */
const authHolds = (telegramId: number, blocked: boolean, withinMs = 10_000) =>
  seenWithin(
    withinMs,
    async () => bot.services.account(telegramId).blocked,
    (marked) => marked === blocked,
  );

/** The bot's own record of the chat. */
async function chatRow(telegramId: number) {
  const { rows } = await sql<{
    blocked_at: Date | null;
    blocked_unreported: boolean;
  }>`
    select blocked_at, blocked_unreported from chats where telegram_id = ${telegramId}`.execute(bot.bot.deps.db);
  return rows[0]!;
}

/** The user's answers the bot has in progress. */
async function answersInProgress(telegramId: number) {
  const { rows } = await sql<{ count: string }>`
    select count(*) as count from generations where telegram_id = ${telegramId}`.execute(bot.bot.deps.db);
  return Number(rows[0]!.count);
}

/** Billing announces a succeeded top-up of the user, as after a card payment. */
const paymentSucceeded = (userId: number, paymentId: string) =>
  bot.deliver('payment.succeeded', {
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
  });

describe('a user who blocked the bot', () => {
  test('one refused edit mid-answer, then nothing reaches Telegram (no retries, no payment notice); auth is told until they write again', async () => {
    const { telegram, openai } = bot;
    const { user, userId } = await startedUser(10_000);
    const toChat = (since: number) =>
      telegram.calls.slice(since).filter((call) => Number(call.params.chat_id) === user.id);

    // The answer is streaming when the user blocks the bot.
    openai.slow(250);
    await reply(user, 'Ответ', say(user, 'Расскажи длинную историю о том, как пользователь заблокировал бота'));
    const blockedFrom = telegram.calls.length;
    telegram.blockBot(user.id);

    await authHolds(user.id, true, 20_000);
    // The answer ends (no longer in progress) without another word to the chat.
    await seenWithin(
      30_000,
      () => answersInProgress(user.id),
      (count) => count === 0,
    );
    openai.slow(0);
    // The answer that could not be delivered holds nothing and costs nothing.
    await seenWithin(
      10_000,
      async () => bot.services.openHolds(),
      (holds) => holds === 0,
    );
    expect(bot.services.account(user.id).credits).toBe(10_000);
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
    await authHolds(user.id, false);
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
    // Auth is down when the bot tells it.
    bot.services.unreachable('setTelegramBlocked');
    telegram.blockBot(user.id);
    const mark = telegram.calls.length;
    await paymentSucceeded(userId, `auth-down-${user.id}`);
    await seenWithin(
      10_000,
      () => chatRow(user.id),
      (chat) => chat.blocked_at !== null && chat.blocked_unreported,
    );
    expect(telegram.calls.slice(mark).filter((call) => Number(call.params.chat_id) === user.id)).toHaveLength(1);
    expect(bot.services.account(user.id).blocked).toBe(false);
    // Auth is back: the bot's next round sends the mark again.
    bot.services.reachable('setTelegramBlocked');
    await authHolds(user.id, true);
    await seenWithin(
      5_000,
      () => chatRow(user.id),
      (chat) => !chat.blocked_unreported,
    );
  });
});
