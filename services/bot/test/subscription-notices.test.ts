import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { sampleSubscriptionNotice } from '@gpt/kit/testing';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * What billing tells a subscription's owner reaches them in Telegram (docs/money.md, Subscriptions); when billing
 * sends which notice is billing's tests.
 */
let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());

const { reply, startedUser } = conversations(() => bot);

const notice = sampleSubscriptionNotice;

describe('subscription notices in the bot', () => {
  test('a reminder names the day, the amount, the card and how to cancel; a decline its reason and the retry', async () => {
    const { user, userId } = await startedUser(0);
    let mark = bot.telegram.calls.length;
    await bot.deliver('subscription.notice', notice(userId, { kind: 'reminder' }));
    await reply(user, /26 декабря 2026 г\. будет списано 350,00\s₽ с карты •••• 4444 .*\/subscription/, mark);

    mark = bot.telegram.calls.length;
    await bot.deliver(
      'subscription.notice',
      notice(userId, { kind: 'declined', reason: 'insufficient_funds', charge_at: '2026-12-27T09:00:00.000Z' }),
    );
    await reply(
      user,
      /Не удалось продлить тариф «Premium»: на карте не хватило денег\.\nПопробуем снова 27 декабря/,
      mark,
    );
  });

  test('a Stars payment is told once, by «Оплата получена»: its renewal notice says nothing more', async () => {
    const { user, userId } = await startedUser(0);
    await bot.deliver('subscription.notice', notice(userId, { kind: 'renewed', method: 'telegram_stars', card: null }));
    const mark = bot.telegram.calls.length;
    await bot.deliver(
      'subscription.notice',
      notice(userId, { kind: 'canceled', method: 'telegram_stars', card: null }),
    );
    await reply(user, 'Автопродление тарифа «Premium» отменено', mark);
    const said = bot.telegram.calls.filter(
      (call) => Number(call.params.chat_id) === user.id && String(call.params.text).includes('продлён'),
    );
    expect(said).toHaveLength(0);
  });
});
