import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { PAYMENT_EMAIL_NOT_GIVEN, PAYMENT_STATUS_LABELS } from '@gpt/contracts';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * A payment that ends without money reaches the payer in Telegram, with a button to pay again.
 * Billing's events are delivered as billing publishes them (when it publishes them — a canceled
 * payment, a refund, an e-mail that never came — is billing's tests).
 */
let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());

const { say, reply, press, payBy, buttonsOf, startedUser } = conversations(() => bot);

/** The user's latest payment in the stand-in billing. */
const lastPaymentOf = async (telegramId: number) => (await bot.services.payments(telegramId)).payments[0]!;

/** Billing cancels the payment for `reason` (the payer's cancel on the payment page is `canceled_by_merchant`). */
const cancel = (paymentId: string, reason = 'canceled_by_merchant') =>
  bot.deliver('payment.canceled', bot.services.cancelPayment(paymentId, reason));

/** A Telegram user who pressed /buy, a top-up of `roubles`, gave the e-mail and got the payment page. */
async function telegramPayer(roubles: number) {
  const { user, userId } = await startedUser(0);
  await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
  await reply(user, 'Для чека нужен e-mail', await payBy(user, `buy:topup:${roubles}`));
  await reply(user, `Сумма: ${roubles},00 ₽`, say(user, `payer.${user.id}@example.com`));
  return { user, userId, paymentId: (await lastPaymentOf(user.id)).payment_id };
}

describe('payment canceled or failed', () => {
  test('a /buy payment canceled on the payment page ends in «Оплата … не прошла» with a button that offers the same payment again', async () => {
    const { user, paymentId } = await telegramPayer(300);
    const mark = bot.telegram.calls.length;
    await cancel(paymentId);

    const told = await reply(user, 'Оплата 300,00 ₽ не прошла: платёж отменён.', mark);
    expect(told.params.text).toContain('Кредиты не начислены. Можно попробовать ещё раз.');
    expect(buttonsOf(told)).toEqual([{ text: '🔁 Попробовать снова', callback_data: 'buy:topup:300' }]);

    // The e-mail is known now: the button goes straight to a new payment page of the same sum.
    const again = await reply(user, 'Сумма: 300,00 ₽', press(user, 'не прошла', 'buy:topup:300'));
    expect(buttonsOf(again)[0]).toMatchObject({ text: 'Оплатить 300,00 ₽' });
  });

  test('a canceled payment of a user without Telegram sends nothing', async () => {
    const { user, paymentId } = await telegramPayer(100);

    // The web user's cancellation is handled first, then a Telegram user's: only the second is told.
    const mark = bot.telegram.calls.length;
    await bot.deliver('payment.canceled', {
      payment_id: 'web-payment',
      yookassa_payment_id: 'yk-web-payment',
      user_id: 900_000,
      kind: 'topup',
      tariff_id: null,
      amount: '500.00',
      currency: 'RUB',
      reason: 'canceled_by_merchant',
      party: 'merchant',
      canceled_at: new Date().toISOString(),
    });
    await cancel(paymentId);
    await reply(user, 'Оплата 100,00 ₽ не прошла', mark);
    const sent = bot.telegram.calls.slice(mark).filter((call) => call.method === 'sendMessage');
    expect(sent.map((call) => Number(call.params.chat_id))).toEqual([user.id]);
  });

  test('a payment that failed on our side tells the payer only when it had reached a payment page', async () => {
    const { user, userId } = await startedUser(0);
    const premium = bot.services.tariffRows.find((tariff) => tariff.name === 'Premium')!.id;
    const fail = (paymentId: string, yookassaId: string | null) =>
      bot.deliver('payment.failed', {
        payment_id: paymentId,
        yookassa_payment_id: yookassaId,
        user_id: userId,
        kind: 'tariff',
        tariff_id: premium,
        amount: '350.00',
        currency: 'RUB',
        reason: 'Платёжный сервис не знает этот платёж',
        failed_at: new Date().toISOString(),
      });

    const mark = bot.telegram.calls.length;
    await fail(`never-${userId}`, null);
    await fail(`shown-${userId}`, `yk-${userId}`);
    const told = await reply(user, 'Оплата 350,00 ₽ не завершена', mark);
    expect(buttonsOf(told)).toEqual([{ text: '🔁 Попробовать снова', callback_data: `buy:tariff:${premium}` }]);
    const sent = bot.telegram.calls.slice(mark).filter((call) => call.method === 'sendMessage');
    expect(sent).toHaveLength(1);
  });
});

describe('payment refunded', () => {
  test("a card payment the admin refunds ends in «Платёж N ₽ возвращён» in the payer's chat", async () => {
    const { user, userId, paymentId } = await telegramPayer(500);

    const mark = bot.telegram.calls.length;
    await bot.deliver('payment.refunded', {
      payment_id: paymentId,
      yookassa_payment_id: `yk-${paymentId}`,
      user_id: userId,
      kind: 'topup',
      tariff_id: null,
      amount: '500.00',
      currency: 'RUB',
      credits_amount: 50_000,
      refund_id: `refund-${paymentId}`,
      refunded_at: new Date().toISOString(),
    });
    const told = await reply(user, 'Платёж 500,00 ₽ возвращён', mark);
    expect(told.params.text).toMatch(/50\s000 кредитов списаны с баланса/);
  });
});

describe('the receipt e-mail step', () => {
  /** A Telegram user whose card payment waits for the receipt e-mail. */
  async function askedForEmail() {
    const { user } = await startedUser(0);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    const ask = await reply(user, 'Для чека нужен e-mail', await payBy(user, 'buy:topup:100'));
    expect(buttonsOf(ask)).toEqual([{ text: 'Отмена', callback_data: 'pay:email:cancel' }]);
    return { user };
  }
  const modelCalls = () => bot.openai.requests.length;

  test('a reply that is not an e-mail is answered «Это не похоже на e-mail» with «Отмена», never sent to the model; «Отмена» ends the wait', async () => {
    const { user } = await askedForEmail();
    const before = modelCalls();

    const answer = await reply(user, 'Это не похоже на e-mail', say(user, 'Расскажи анекдот про кота'));

    expect(buttonsOf(answer)).toEqual([{ text: 'Отмена', callback_data: 'pay:email:cancel' }]);
    await reply(user, 'Это не похоже на e-mail', say(user, 'maria@'));
    await reply(user, 'оплату отменил', press(user, 'Это не похоже на e-mail', 'pay:email:cancel'));
    expect(modelCalls()).toBe(before);
    expect(bot.services.recorded.filter((entry) => entry.body.telegram_id === user.id)).toEqual([]);

    // The wait is over: the next text is a question again (this user has no credits for it).
    await reply(user, 'Недостаточно кредитов для ответа', say(user, 'Привет'));
  });

  test('a payment left waiting for its e-mail is canceled after the wait: the payer is told, /paysupport says so, the bot stops asking', async () => {
    const { user } = await askedForEmail();
    const mark = bot.telegram.calls.length;

    await cancel((await lastPaymentOf(user.id)).payment_id, PAYMENT_EMAIL_NOT_GIVEN);

    await reply(user, 'Оплата 100,00 ₽ не прошла: e-mail для чека так и не был указан.', mark);
    const support = await reply(user, 'Помощь с оплатой', say(user, '/paysupport'));
    expect(support.params.text).toContain('Отмен');
    expect(support.params.text).toContain('e-mail для чека так и не был указан');
    expect(support.params.text).not.toContain(PAYMENT_STATUS_LABELS.pending_email);
    await reply(user, 'Недостаточно кредитов для ответа', say(user, 'Привет'));
  });
});

describe('an answer to a support request', () => {
  test('an admin’s answer through the bot reaches every chat of the user, the subject quoted', async () => {
    const { user, userId } = await startedUser(0);
    const mark = bot.telegram.calls.length;

    await bot.deliver('support.answered', {
      request_id: userId,
      user_id: userId,
      channel: 'telegram',
      email: null,
      subject: 'Не пришли <кредиты>',
      answer: 'Кредиты начислены, проверьте /balance.',
      answered_at: new Date().toISOString(),
    });

    const told = await reply(user, 'Ответ на ваше обращение «Не пришли <кредиты>»', mark);
    expect(told.params.text).toContain('Кредиты начислены, проверьте /balance.');
  });
});
