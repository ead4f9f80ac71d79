import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { LabeledPrice } from 'grammy/types';
import type { FakeUser } from '@gpt/telegram-sandbox/testing';
import type { AdminReconciliationResponse } from '@gpt/contracts';
import { BOT_KEY, balanceOf, startBotStack, tariffId, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';

let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());

const { say, reply, payBy, startedUser } = conversations(() => bot);

/** The user presses a Stars button of /buy; answers the invoice the bot sent. */
async function starsInvoice(user: FakeUser, callbackData: string) {
  await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
  const mark = await payBy(user, callbackData);
  return bot.telegram.waitFor(
    'sendInvoice',
    (call) => Number(call.params.chat_id) === user.id && bot.telegram.calls.indexOf(call) >= mark,
  );
}

const messageIdOf = (call: { result?: unknown }) => (call.result as { message_id: number }).message_id;

/** The Stars payment billing recorded for this charge, as the admin screen lists it. */
async function adminPayments(userId: number) {
  const res = await bot.api<{ payments: { id: number; provider: string; star_amount: number; status: string }[] }>(
    'GET',
    `/api/admin/payments?userId=${userId}&provider=telegram_stars`,
    { token: bot.adminToken },
  );
  return res.body.payments;
}

describe('Telegram Stars in the bot', () => {
  test('a top-up paid in stars: invoice in XTR with one price, pre-checkout, «Оплата получена», once even when Telegram repeats the payment', async () => {
    const { user, userId } = await startedUser(0);
    const invoice = await starsInvoice(user, 'stars:topup:300');
    expect(invoice.params).toMatchObject({ currency: 'XTR', provider_token: '' });
    expect(invoice.params.prices as LabeledPrice[]).toEqual([
      { label: expect.stringMatching(/^Пополнение 300,00\s₽$/), amount: 200 },
    ]);
    expect(String(invoice.params.title)).toMatch(/^Пополнение на 30\s000 кредитов$/);

    const mark = bot.telegram.calls.length;
    const paid = await bot.telegram.payInvoice(user, messageIdOf(invoice));
    expect(paid.ok).toBe(true);
    await reply(user, 'Оплата получена: +30 000 кредитов', mark);
    expect((await balanceOf(bot, user.id)).credits).toBe(30_000);

    // Telegram delivers the same successful_payment again: nothing more is credited or said. Updates of
    // a chat are handled in order, so once /buy is answered the repeated payment has been handled.
    if (paid.ok) bot.telegram.redeliver(paid.update);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    expect((await balanceOf(bot, user.id)).credits).toBe(30_000);
    expect(await adminPayments(userId)).toEqual([
      expect.objectContaining({ provider: 'telegram_stars', star_amount: 200, status: 'succeeded' }),
    ]);
    const told = bot.telegram.calls.filter(
      (call) => Number(call.params.chat_id) === user.id && String(call.params.text).includes('Оплата получена'),
    );
    expect(told).toHaveLength(1);
  });

  test('a tariff paid in stars puts the user on it with its included credits', async () => {
    const { user } = await startedUser(0);
    const premium = await tariffId(bot, 'Premium');
    const invoice = await starsInvoice(user, `stars:tariff:${premium}`);
    expect(invoice.params.prices as LabeledPrice[]).toEqual([{ label: 'Тариф «Premium»', amount: 234 }]);
    const mark = bot.telegram.calls.length;
    expect((await bot.telegram.payInvoice(user, messageIdOf(invoice))).ok).toBe(true);
    await reply(user, /Оплата получена: тариф Premium до .*\+70 000 кредитов/, mark);
    expect((await balanceOf(bot, user.id)).included_credits).toBe(70_000);
  });

  test('when the price changed after the invoice was sent, then the pre-checkout is declined and nothing is charged', async () => {
    const { user } = await startedUser(0);
    const invoice = await starsInvoice(user, 'stars:topup:500');
    const rate = await bot.api('PUT', '/api/admin/sys_vals/star_rate_rub', {
      token: bot.adminToken,
      body: { value: '2' },
    });
    expect(rate.status).toBe(200);
    const billing = bot.stack.services.find((service) => service.name === 'billing')!;
    await billing.deps.bus.waitFor(
      'acked',
      (event) => event.type === 'setting.changed' && (event.data as { value: string }).value === '2',
    );
    try {
      const paid = await bot.telegram.payInvoice(user, messageIdOf(invoice));
      expect(paid).toEqual({ ok: false, error_message: 'Цена изменилась. Откройте /buy, чтобы получить новый счёт.' });
      expect((await balanceOf(bot, user.id)).credits).toBe(0);
    } finally {
      await bot.api('PUT', '/api/admin/sys_vals/star_rate_rub', { token: bot.adminToken, body: { value: '1.5' } });
    }
  });

  test('an admin refund of a Stars payment calls refundStarPayment, takes back the credits and tells the user', async () => {
    const { user, userId } = await startedUser(0);
    const invoice = await starsInvoice(user, 'stars:topup:100');
    const mark = bot.telegram.calls.length;
    const paid = await bot.telegram.payInvoice(user, messageIdOf(invoice));
    await reply(user, 'Оплата получена', mark);
    const [payment] = await adminPayments(userId);

    const refundMark = bot.telegram.calls.length;
    const [first, second] = await Promise.all(
      [0, 1].map(() =>
        bot.api<{ payment: { status: string; refund_id: string } }>(
          'POST',
          `/api/admin/payments/${payment!.id}/refund`,
          {
            token: bot.adminToken,
          },
        ),
      ),
    );
    expect([first!.status, second!.status]).toEqual([200, 200]);
    expect(first!.body.payment.status).toBe('refunded');
    if (paid.ok) expect(bot.telegram.charges.get(paid.payment.telegram_payment_charge_id)?.refunded).toBe(true);
    await reply(user, 'Платёж 100,00 ₽ возвращён', refundMark);
    expect((await balanceOf(bot, user.id)).credits).toBe(0);
  });

  test("billing's reconciliation reads Telegram's transactions through the bot: the Stars paid in Telegram match, a payment Telegram never took is reported", async () => {
    const { user, userId } = await startedUser(0);
    const invoice = await starsInvoice(user, 'stars:topup:100');
    const mark = bot.telegram.calls.length;
    await bot.telegram.payInvoice(user, messageIdOf(invoice));
    await reply(user, 'Оплата получена', mark);
    // A Stars payment billing recorded under a charge Telegram never made.
    const quote = await bot.api<{ payload: string; star_amount: number }>('POST', '/api/bot/stars/invoices', {
      botKey: BOT_KEY,
      body: { telegram_id: user.id, amount: '100.00' },
    });
    const recorded = await bot.api('POST', '/api/bot/stars/payments', {
      botKey: BOT_KEY,
      body: {
        telegram_id: user.id,
        invoice_payload: quote.body.payload,
        currency: 'XTR',
        total_amount: quote.body.star_amount,
        telegram_payment_charge_id: 'stxNeverTakenByTelegram',
      },
    });
    expect(recorded.status).toBe(200);

    const res = await bot.api<AdminReconciliationResponse>('POST', '/api/admin/reconciliation', {
      token: bot.adminToken,
    });

    expect(res.status).toBe(200);
    const report = res.body.report!;
    expect(report.sources).toContainEqual({ source: 'telegram_stars', checked: expect.any(Number), error: null });
    expect(report.differences.filter((d) => d.source === 'telegram_stars')).toEqual([
      {
        source: 'telegram_stars',
        kind: 'not_paid_there',
        provider_id: 'stxNeverTakenByTelegram',
        payment_id: expect.any(Number),
        user_id: userId,
        ours: String(quote.body.star_amount),
        theirs: null,
      },
    ]);
  });

  test('/paysupport lists the last payments and says how refunds work; /terms links the offer', async () => {
    const { user } = await startedUser(0);
    const invoice = await starsInvoice(user, 'stars:topup:1000');
    const mark = bot.telegram.calls.length;
    await bot.telegram.payInvoice(user, messageIdOf(invoice));
    await reply(user, 'Оплата получена', mark);
    const support = await reply(user, 'Помощь с оплатой', say(user, '/paysupport'));
    expect(String(support.params.text)).toMatch(/1\s000,00\s₽ \(667 ⭐\) · Успешно/);
    expect(String(support.params.text)).toContain('Возвраты');
    await reply(user, '/offer', say(user, '/terms'));
  });
});
