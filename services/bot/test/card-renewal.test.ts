import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { RENEWAL_CONSENT_VERSION } from '@gpt/contracts';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/** «Продлевать автоматически» in the bot (docs/money.md, Subscriptions): never chosen for the user, agreed to by one press. */
let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());

const { say, reply, press, buttonsOf, startedUser } = conversations(() => bot);

describe('a tariff by a card that renews it', () => {
  test('«Как оплатить?» offers it beside the plain card; its consent comes first, and only «Согласен, оплатить» saves the card', async () => {
    const { user } = await startedUser(0);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    const ways = await reply(user, 'Как оплатить?', press(user, 'Пополнение и тарифы', 'pay:tariff:2'));
    expect(buttonsOf(ways).map((button) => button.text)).toEqual([
      '⭐ Оплатить звёздами',
      '💳 Картой',
      '🔁 Картой, продлевать автоматически',
    ]);

    const consent = await reply(user, 'Продлевать автоматически', press(user, 'Как оплатить?', 'renew:ask:2'));
    expect(String(consent.params.text)).toContain('Списывать 350.00 ₽ раз в месяц за тариф «Premium»');
    expect(bot.services.paymentRequests).toHaveLength(0);

    await reply(user, /e-mail/, press(user, 'Продлевать автоматически', 'renew:agree:2'));
    expect(bot.services.paymentRequests.at(-1)).toEqual({
      telegram_id: user.id,
      tariff_id: 2,
      auto_renew: true,
      consent_version: RENEWAL_CONSENT_VERSION,
    });
  });

  test('the plain card pays a month without renewing', async () => {
    const { user } = await startedUser(0);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    await reply(user, 'Как оплатить?', press(user, 'Пополнение и тарифы', 'pay:tariff:2'));
    await reply(user, /e-mail/, press(user, 'Как оплатить?', 'buy:tariff:2'));
    expect(bot.services.paymentRequests.at(-1)).toEqual({ telegram_id: user.id, tariff_id: 2 });
  });
});
