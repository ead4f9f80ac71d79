import { sandboxDecisionCall } from '@gpt/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { PAYMENT_STATUS_LABELS, type PaymentCanceledData, type PaymentFailedData } from '@gpt/contracts';
import type { BillingDeps } from '../../billing/src/deps';
import { expireEmailWaits } from '../../billing/src/domain/settle-payment';
import { startBotStack, tariffId, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';

/** A payment that ends without money reaches the payer in Telegram, with a button to pay again. */
type PaymentFact = PaymentCanceledData | PaymentFailedData;

let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());

const { say, reply, press, payBy, buttonsOf, startedUser } = conversations(() => bot);

/** The payer decides on the sandbox payment page (a cancel is recorded as `canceled_by_merchant`). */
async function decideSandbox(confirmationUrl: string, decision: 'succeeded' | 'canceled') {
  const { path, body } = sandboxDecisionCall(confirmationUrl, decision);
  const res = await bot.api('POST', path, { body });
  expect(res.status).toBe(200);
}
const cancelSandbox = (confirmationUrl: string) => decideSandbox(confirmationUrl, 'canceled');

const serviceOf = (name: string) => bot.stack.services.find((service) => service.name === name)!;

/** The bot's consumer has handled (and committed) an event of this type about this payer's payment. */
const botHandled = (type: 'payment.canceled' | 'payment.failed', match: (data: PaymentFact) => boolean) =>
  serviceOf('bot').deps.bus.waitFor('acked', (event) => event.type === type && match(event.data as PaymentFact));

/** A Telegram user who pressed /buy, a top-up of `roubles`, gave the e-mail and got the payment page. */
async function telegramPayer(roubles: number) {
  const { user, userId } = await startedUser(0);
  await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
  await reply(user, 'Для чека нужен e-mail', await payBy(user, `buy:topup:${roubles}`));
  const offer = await reply(user, `Сумма: ${roubles},00 ₽`, say(user, `payer.${user.id}@example.com`));
  return { user, userId, payUrl: buttonsOf(offer)[0]!.url! };
}

describe('payment canceled or failed', () => {
  test('a /buy payment canceled in the sandbox ends in «Оплата … не прошла» with a button that offers the same payment again', async () => {
    const { user, payUrl } = await telegramPayer(300);
    const mark = bot.telegram.calls.length;
    await cancelSandbox(payUrl);

    const told = await reply(user, 'Оплата 300,00 ₽ не прошла: платёж отменён.', mark);
    expect(told.params.text).toContain('Кредиты не начислены. Можно попробовать ещё раз.');
    expect(buttonsOf(told)).toEqual([{ text: '🔁 Попробовать снова', callback_data: 'buy:topup:300' }]);

    // The e-mail is known now: the button goes straight to a new payment page of the same sum.
    const again = await reply(user, 'Сумма: 300,00 ₽', press(user, 'не прошла', 'buy:topup:300'));
    expect(buttonsOf(again)[0]).toMatchObject({ text: 'Оплатить 300,00 ₽' });
  });

  test('a canceled payment of a user without Telegram sends nothing', async () => {
    const email = `web.${Date.now()}@example.com`;
    const billingKnows = serviceOf('billing').deps.bus.waitFor(
      'acked',
      (event) => event.type === 'user.registered' && (event.data as { email: string }).email === email,
    );
    const web = await bot.api<{ token: string; user: { id: number } }>('POST', '/api/auth/register', {
      body: { email, password: 'password1' },
    });
    await billingKnows;
    const webPayment = await bot.api<{ confirmation_url: string }>('POST', '/api/billing/payments', {
      token: web.body.token,
      body: { amount: '500.00' },
    });
    expect(webPayment.status).toBe(201);
    const { user, payUrl } = await telegramPayer(100);

    // The web user's cancellation is handled first, then a Telegram user's: only the second is told.
    const mark = bot.telegram.calls.length;
    const webHandled = botHandled('payment.canceled', (data) => data.user_id === web.body.user.id);
    await cancelSandbox(webPayment.body.confirmation_url);
    await webHandled;
    await cancelSandbox(payUrl);
    await reply(user, 'Оплата 100,00 ₽ не прошла', mark);
    const sent = bot.telegram.calls.slice(mark).filter((call) => call.method === 'sendMessage');
    expect(sent.map((call) => Number(call.params.chat_id))).toEqual([user.id]);
  });

  test('a payment that failed on our side tells the payer only when it had reached a payment page', async () => {
    const { user, userId } = await startedUser(0);
    const premium = await tariffId(bot, 'Premium');
    const { bus } = serviceOf('billing').deps;
    const fail = (paymentId: string, yookassaId: string | null) =>
      bus.transaction((trx) =>
        bus.publish(trx, 'payment.failed', {
          payment_id: paymentId,
          yookassa_payment_id: yookassaId,
          user_id: userId,
          kind: 'tariff',
          tariff_id: premium,
          amount: '350.00',
          currency: 'RUB',
          reason: 'Платёжный сервис не знает этот платёж',
          failed_at: new Date().toISOString(),
        }),
      );

    const mark = bot.telegram.calls.length;
    const neverShown = botHandled('payment.failed', (data) => data.payment_id === `never-${userId}`);
    await fail(`never-${userId}`, null);
    await neverShown;
    await fail(`shown-${userId}`, `yk-${userId}`);
    const told = await reply(user, 'Оплата 350,00 ₽ не завершена', mark);
    expect(buttonsOf(told)).toEqual([{ text: '🔁 Попробовать снова', callback_data: `buy:tariff:${premium}` }]);
    const sent = bot.telegram.calls.slice(mark).filter((call) => call.method === 'sendMessage');
    expect(sent).toHaveLength(1);
  });
});

describe('payment refunded', () => {
  test("a card payment the admin refunds ends in «Платёж N ₽ возвращён» in the payer's chat", async () => {
    const { user, userId, payUrl } = await telegramPayer(500);
    const paidMark = bot.telegram.calls.length;
    await decideSandbox(payUrl, 'succeeded');
    await reply(user, 'Оплата получена', paidMark);
    const { body } = await bot.api<{ payments: { id: number }[] }>('GET', `/api/admin/payments?userId=${userId}`, {
      token: bot.adminToken,
    });

    const mark = bot.telegram.calls.length;
    const refunded = await bot.api('POST', `/api/admin/payments/${body.payments[0]!.id}/refund`, {
      token: bot.adminToken,
    });
    expect(refunded.status).toBe(200);
    const told = await reply(user, 'Платёж 500,00 ₽ возвращён', mark);
    expect(told.params.text).toMatch(/50\s000 кредитов списаны с баланса/);
  });
});

describe('the receipt e-mail step', () => {
  /** A Telegram user whose card payment waits for the receipt e-mail. */
  async function askedForEmail() {
    const { user, userId } = await startedUser(0);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    const ask = await reply(user, 'Для чека нужен e-mail', await payBy(user, 'buy:topup:100'));
    expect(buttonsOf(ask)).toEqual([{ text: 'Отмена', callback_data: 'pay:email:cancel' }]);
    return { user, userId };
  }
  const modelCalls = () => bot.openai.requests.length;

  test('a reply that is not an e-mail is answered «Это не похоже на e-mail» with «Отмена», never sent to the model; «Отмена» ends the wait', async () => {
    const { user, userId } = await askedForEmail();
    const before = modelCalls();

    const answer = await reply(user, 'Это не похоже на e-mail', say(user, 'Расскажи анекдот про кота'));

    expect(buttonsOf(answer)).toEqual([{ text: 'Отмена', callback_data: 'pay:email:cancel' }]);
    await reply(user, 'Это не похоже на e-mail', say(user, 'maria@'));
    await reply(user, 'оплату отменил', press(user, 'Это не похоже на e-mail', 'pay:email:cancel'));
    expect(modelCalls()).toBe(before);
    const history = await bot.api<{ total: number }>('GET', `/api/admin/history?userId=${userId}`, {
      token: bot.adminToken,
    });
    expect(history.body.total).toBe(0);

    // The wait is over: the next text is a question again (this user has no credits for it).
    await reply(user, 'Недостаточно кредитов для ответа', say(user, 'Привет'));
  });

  test('a payment left waiting for its e-mail is canceled after the wait: the payer is told, /paysupport says so, the bot stops asking', async () => {
    const { user } = await askedForEmail();
    const billing = serviceOf('billing').deps as BillingDeps;
    const mark = bot.telegram.calls.length;

    const later = new Date(Date.now() + (billing.config.PAYMENT_EMAIL_WAIT_SEC + 1) * 1000);
    expect(await expireEmailWaits(billing, later)).toBeGreaterThanOrEqual(1);

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
    const { bus } = serviceOf('content').deps;
    const mark = bot.telegram.calls.length;

    await bus.transaction((trx) =>
      bus.publish(trx, 'support.answered', {
        request_id: userId,
        user_id: userId,
        channel: 'telegram',
        email: null,
        subject: 'Не пришли <кредиты>',
        answer: 'Кредиты начислены, проверьте /balance.',
        answered_at: new Date().toISOString(),
      }),
    );

    const told = await reply(user, 'Ответ на ваше обращение «Не пришли <кредиты>»', mark);
    expect(told.params.text).toContain('Кредиты начислены, проверьте /balance.');
  });
});
