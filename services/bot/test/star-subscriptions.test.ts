import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { UserSubscriptionsResponse } from '@gpt/contracts';
import { BOT_KEY, balanceOf, startBotStack, tariffId, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';

let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());

const { say, reply, press, startedUser } = conversations(() => bot);
const MONTH = 2_592_000;

const subscriptionsOf = async (telegramId: number) =>
  (
    await bot.api<UserSubscriptionsResponse>('GET', `/api/bot/subscriptions?telegram_id=${telegramId}`, {
      botKey: BOT_KEY,
    })
  ).body.subscriptions;

describe('a tariff paid by a Telegram Stars subscription', () => {
  test('«🔁 Подписка за звёзды» makes a 30-day invoice link; paid, renewed once per charge id, cancelled through Telegram', async () => {
    const { user } = await startedUser(0);
    const premium = await tariffId(bot, 'Premium');
    await reply(user, 'Автопродления у вас нет', say(user, '/subscription'));

    const mark = press(user, 'Оформить подписку за звёзды', `stars:sub:${premium}`);
    const created = await bot.telegram.waitFor('createInvoiceLink', (call) => bot.telegram.calls.indexOf(call) >= mark);
    expect(created.params).toMatchObject({ currency: 'XTR', subscription_period: MONTH, provider_token: '' });
    const link = created.result as string;
    await reply(user, 'Подписка на тариф «Premium»: 234 ⭐ каждые 30 дней', mark);

    const paidMark = bot.telegram.calls.length;
    const first = await bot.telegram.paySubscriptionLink(user, link);
    if (!first.ok) throw new Error(`not paid: ${first.error_message}`);
    await reply(user, /Оплата получена: тариф Premium/, paidMark);
    const chargeId = first.payment.telegram_payment_charge_id;
    const [started] = await subscriptionsOf(user.id);
    expect(started).toMatchObject({
      status: 'active',
      method: 'telegram_stars',
      telegram_charge_id: chargeId,
      paid_until: new Date(first.payment.subscription_expiration_date! * 1000).toISOString(),
    });

    // Thirty days later Telegram charges again; the same update delivered twice extends once.
    const renewMark = bot.telegram.calls.length;
    const renewal = bot.telegram.renewSubscription(chargeId);
    if (!renewal?.ok) throw new Error('not renewed');
    await reply(user, /Оплата получена: тариф Premium/, renewMark);
    bot.telegram.redeliver(renewal.update);
    await reply(user, 'подписка Telegram', say(user, '/subscription'));
    const [renewed] = await subscriptionsOf(user.id);
    expect(renewed!.paid_until).toBe(new Date(renewal.payment.subscription_expiration_date! * 1000).toISOString());
    expect((await balanceOf(bot, user.id)).included_credits).toBe(140_000);

    const cancelMark = press(user, 'подписка Telegram', `sub:cancel:${renewed!.id}`);
    const edited = await bot.telegram.waitFor(
      'editUserStarSubscription',
      (call) => bot.telegram.calls.indexOf(call) >= cancelMark,
    );
    expect(edited.params).toMatchObject({ user_id: user.id, telegram_payment_charge_id: chargeId, is_canceled: true });
    await reply(user, 'Автопродление тарифа «Premium» отменено', cancelMark);
    expect((await subscriptionsOf(user.id))[0]).toMatchObject({ status: 'canceled' });
    expect(bot.telegram.renewSubscription(chargeId)).toBeNull();

    // Before its end it can be turned back on, at Telegram too.
    await reply(user, 'Автопродление отменено. Оплачено до:', say(user, '/subscription'));
    const resumeMark = press(user, 'Автопродление отменено. Оплачено до:', `sub:resume:${renewed!.id}`);
    await bot.telegram.waitFor(
      'editUserStarSubscription',
      (call) => bot.telegram.calls.indexOf(call) >= resumeMark && call.params.is_canceled === false,
    );
    await reply(user, 'снова продлевается', resumeMark);
    expect((await subscriptionsOf(user.id))[0]).toMatchObject({ status: 'active' });

    // An admin's «Отменить» reaches Telegram through the bot before billing records it.
    const adminMark = bot.telegram.calls.length;
    const byAdmin = await bot.api('POST', `/api/admin/subscriptions/${renewed!.id}/cancel`, {
      token: bot.adminToken,
      body: { reason: 'Просьба пользователя' },
    });
    expect(byAdmin).toMatchObject({ status: 200, body: { status: 'canceled' } });
    const canceledThere = await bot.telegram.waitFor(
      'editUserStarSubscription',
      (call) => bot.telegram.calls.indexOf(call) >= adminMark,
    );
    expect(canceledThere.params).toMatchObject({ telegram_payment_charge_id: chargeId, is_canceled: true });
    expect(bot.telegram.renewSubscription(chargeId)).toBeNull();
  }, 60_000);
});
