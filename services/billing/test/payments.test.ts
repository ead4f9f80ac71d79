import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  PAYMENT_EMAIL_NOT_GIVEN,
  type CreatePaymentResponse,
  type PaymentCanceledData,
  type PaymentFailedData,
  type UserPaymentsResponse,
} from '@gpt/contracts';
import { expireCardPayments, expireEmailWaits } from '../src/domain/settle-payment';
import { FAKE_SECRET_KEY, FAKE_SHOP_ID } from './support/fake-yookassa';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

function pay(userId: number, body: Record<string, unknown>) {
  return h.call<CreatePaymentResponse & { error?: string; code?: string }>('POST', '/api/billing/payments', {
    token: h.userToken(userId),
    body,
  });
}

describe('POST /api/billing/payments (top-up)', () => {
  test('when a user tops up 350 ₽, then the provider gets the v3 create call and the payer gets its confirmation URL', async () => {
    const userId = await h.registerUser();
    const res = await pay(userId, { amount: 350 });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pending',
      kind: 'topup',
      amount: '350.00',
      credits_amount: 35_000,
      tariff_id: null,
      description: 'Пополнение баланса на 350,00\u00a0₽',
    });
    const created = h.yookassa.requestsTo('POST', '/payments');
    expect(created).toHaveLength(1);
    const [request] = created;
    expect(request!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${FAKE_SHOP_ID}:${FAKE_SECRET_KEY}`).toString('base64')}`,
    );
    expect(request!.headers['idempotence-key']).toBe(res.body.payment_id);
    expect(request!.body).toEqual({
      amount: { value: '350.00', currency: 'RUB' },
      capture: true,
      confirmation: {
        type: 'redirect',
        return_url: `https://site.example/payment/result?payment_id=${res.body.payment_id}`,
      },
      description: 'Пополнение баланса на 350,00\u00a0₽',
      metadata: { payment_id: res.body.payment_id, user_id: String(userId), kind: 'topup' },
      receipt: {
        customer: { email: `user${userId}@example.com` },
        items: [
          {
            description: 'Пополнение баланса на 350,00\u00a0₽',
            quantity: '1.00',
            amount: { value: '350.00', currency: 'RUB' },
            vat_code: 1,
            payment_mode: 'full_payment',
            payment_subject: 'service',
          },
        ],
      },
    });
    const remote = [...h.yookassa.payments.values()].find((p) => p.metadata?.payment_id === res.body.payment_id);
    expect(res.body.confirmation_url).toBe(remote?.confirmation?.confirmation_url);
  });

  test('when the amount has kopecks, then it travels as an exact string and the credits are exact', async () => {
    const userId = await h.registerUser();
    const res = await pay(userId, { amount: '100.01' });
    expect(res.body).toMatchObject({ amount: '100.01', credits_amount: 10_001 });
    const request = h.yookassa.requestsTo('POST', '/payments').at(-1)!;
    expect((request.body as { amount: unknown }).amount).toEqual({ value: '100.01', currency: 'RUB' });
    const small = await pay(userId, { amount: 0.07 + 1 }); // 1.07 exactly, as JSON writes it
    expect(small.body).toMatchObject({ amount: '1.07', credits_amount: 107 });
  });

  test.each([
    [{ amount: 0.1 + 0.2 }, 'Сумма: не более 2 знаков после запятой'],
    [{ amount: '12.345' }, 'Сумма: не более 2 знаков после запятой'],
    [{ amount: 0.5 }, 'Минимальная сумма пополнения 1 ₽'],
    [{ amount: 'много' }, 'Сумма должна быть числом'],
    [{}, 'Укажите либо сумму пополнения, либо тариф'],
    [{ amount: 100, tariff_id: 2 }, 'Укажите либо сумму пополнения, либо тариф'],
  ])('when the body is %j, then 400 with "%s" and nothing reaches the provider', async (body, message) => {
    const userId = await h.registerUser();
    const before = h.yookassa.requests.length;
    const res = await pay(userId, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, code: 'validation_error' });
    expect(h.yookassa.requests.length).toBe(before);
  });

  test('when there is no token, then 401', async () => {
    expect((await h.call('POST', '/api/billing/payments', { body: { amount: 10 } })).status).toBe(401);
  });
});

describe('creating at the provider', () => {
  test.each(['created-then-500', 'created-then-drop'] as const)(
    'when the first create call is %s, then the retry with the same Idempotence-Key yields one provider payment',
    async (fault) => {
      const userId = await h.registerUser();
      const paymentsBefore = h.yookassa.payments.size;
      h.yookassa.failNextCreates(fault);
      const res = await pay(userId, { amount: 200 });

      expect(res.status).toBe(201);
      expect(h.yookassa.payments.size).toBe(paymentsBefore + 1);
      const attempts = h.yookassa
        .requestsTo('POST', '/payments')
        .filter((r) => r.headers['idempotence-key'] === res.body.payment_id);
      expect(attempts).toHaveLength(2);
      const row = await h.billing.deps.db
        .selectFrom('payments')
        .select(['status', 'yookassa_payment_id'])
        .where('payment_id', '=', res.body.payment_id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('pending');
      expect(h.yookassa.payments.has(row.yookassa_payment_id!)).toBe(true);
    },
  );

  test('when the provider refuses the payment, then 502 with a Russian message, the payment is failed and payment.failed is published', async () => {
    const userId = await h.registerUser();
    h.yookassa.failNextCreates('refuse-400');
    const res = await pay(userId, { amount: 10 });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: 'Не удалось создать платёж у платёжного сервиса, попробуйте позже',
      code: 'payment_provider_error',
    });
    const failed = await h.billing.deps.bus.waitFor(
      'published',
      (e) => e.type === 'payment.failed' && (e.data as PaymentFailedData).user_id === userId,
    );
    const row = await h.billing.deps.db
      .selectFrom('payments')
      .select(['status', 'failure_reason'])
      .where('payment_id', '=', (failed.data as PaymentFailedData).payment_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.failure_reason).toMatch(/^Платёжный сервис не создал платёж/);
  });
});

describe('POST /api/billing/payments (tariff)', () => {
  test('when a user buys Premium, then the price of the tariff is charged and its included credits are promised', async () => {
    const userId = await h.registerUser();
    const res = await pay(userId, { tariff_id: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'tariff',
      tariff_id: 2,
      amount: '350.00',
      credits_amount: 70_000,
      description: 'Тариф «Premium» на 1 месяц',
    });
    const request = h.yookassa.requestsTo('POST', '/payments').at(-1)!;
    expect((request.body as { metadata: unknown }).metadata).toEqual({
      payment_id: res.body.payment_id,
      user_id: String(userId),
      kind: 'tariff',
      tariff_id: '2',
    });
  });

  test('when the tariff is free, unknown or inactive, then it cannot be bought', async () => {
    const userId = await h.registerUser();
    expect(await pay(userId, { tariff_id: 1 })).toMatchObject({ status: 409, body: { code: 'tariff_free' } });
    expect(await pay(userId, { tariff_id: 999 })).toMatchObject({ status: 404, body: { error: 'Тариф не найден' } });
    const hidden = await h.call<{ tariff: { id: number } }>('POST', '/api/admin/tariffs', {
      token: h.adminToken(),
      body: { name: `Скрытый ${userId}`, monthly_price: 10, is_active: false },
    });
    expect(await pay(userId, { tariff_id: hidden.body.tariff.id })).toMatchObject({
      status: 409,
      body: { error: 'Этот тариф сейчас недоступен для покупки' },
    });
  });
});

describe('bot payments and the receipt e-mail', () => {
  test('when a Telegram user without a receipt e-mail pays, then the payment waits for it; the e-mail sends it to the provider', async () => {
    const telegramId = 5_000_000_001;
    const userId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    const providerCalls = h.yookassa.requestsTo('POST', '/payments').length;

    const created = await h.call<CreatePaymentResponse>('POST', '/api/bot/payments', {
      bot: true,
      body: { telegram_id: String(telegramId), amount: 500 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending_email', confirmation_url: null, credits_amount: 50_000 });
    expect(h.yookassa.requestsTo('POST', '/payments')).toHaveLength(providerCalls);

    const path = `/api/bot/payments/${created.body.payment_id}/email`;
    const bad = await h.call('PATCH', path, { bot: true, body: { email: 'нет' } });
    expect(bad).toMatchObject({ status: 400, body: { error: 'Некорректный email' } });

    const supplied = await h.call<CreatePaymentResponse>('PATCH', path, {
      bot: true,
      body: { email: ' Buyer@Example.com ' },
    });
    expect(supplied.status).toBe(200);
    expect(supplied.body.status).toBe('pending');
    expect(supplied.body.confirmation_url).toMatch(/^https:\/\/yoomoney\.fake\/checkout/);
    const request = h.yookassa.requestsTo('POST', '/payments').at(-1)!;
    expect((request.body as { receipt: { customer: unknown } }).receipt.customer).toEqual({
      email: 'buyer@example.com',
    });
    expect((request.body as { metadata: { user_id: string } }).metadata.user_id).toBe(String(userId));

    const again = await h.call('PATCH', path, { bot: true, body: { email: 'buyer@example.com' } });
    expect(again).toMatchObject({ status: 409, body: { error: 'Платёж не ожидает email' } });
  });

  test('when the same user pays again before auth has passed the e-mail back, then the e-mail given last is used, not asked again', async () => {
    const telegramId = 5_000_000_013;
    await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    const payInBot = () =>
      h.call<CreatePaymentResponse>('POST', '/api/bot/payments', {
        bot: true,
        body: { telegram_id: telegramId, amount: 100 },
      });
    const first = await payInBot();
    expect(first.body.status).toBe('pending_email');
    await h.call('PATCH', `/api/bot/payments/${first.body.payment_id}/email`, {
      bot: true,
      body: { email: 'second@example.com' },
    });

    // Nobody here passes `receipt_email.supplied` back as the user's own: billing's copy of the user has no e-mail.
    const next = await payInBot();
    expect(next.body.status).toBe('pending');
    const request = h.yookassa.requestsTo('POST', '/payments').at(-1)!;
    expect((request.body as { receipt: { customer: unknown } }).receipt.customer).toEqual({
      email: 'second@example.com',
    });
  });

  test('when the bot gives the e-mail with the payment, then it goes to the provider at once', async () => {
    const telegramId = 5_000_000_002;
    await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    const res = await h.call<CreatePaymentResponse>('POST', '/api/bot/payments', {
      bot: true,
      body: { telegram_id: telegramId, tariff_id: 3, email: 'elite@example.com' },
    });
    expect(res.body).toMatchObject({ status: 'pending', kind: 'tariff', amount: '1250.00', credits_amount: 500_000 });
  });

  test('when a payment waits for its e-mail past PAYMENT_EMAIL_WAIT_SEC, then it is canceled as email_not_given and payment.canceled says so', async () => {
    const telegramId = 5_000_000_003;
    const userId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    const created = await h.call<CreatePaymentResponse>('POST', '/api/bot/payments', {
      bot: true,
      body: { telegram_id: telegramId, amount: 100 },
    });
    expect(created.body.status).toBe('pending_email');
    const { deps } = h.billing;
    const paymentOf = async () => {
      const res = await h.call<UserPaymentsResponse>('GET', `/api/bot/payments?telegram_id=${telegramId}`, {
        bot: true,
      });
      return res.body.payments.find((payment) => payment.payment_id === created.body.payment_id)!;
    };
    const afterWait = (extraSec: number) =>
      new Date(Date.now() + (deps.config.PAYMENT_EMAIL_WAIT_SEC + extraSec) * 1000);
    const canceled = deps.bus.waitFor(
      'published',
      (e) => e.type === 'payment.canceled' && (e.data as PaymentCanceledData).payment_id === created.body.payment_id,
    );

    await expireEmailWaits(deps, afterWait(-60));
    expect(await paymentOf()).toMatchObject({ status: 'pending_email', cancellation_reason: null });

    expect(await expireEmailWaits(deps, afterWait(1))).toBeGreaterThanOrEqual(1);
    expect(await paymentOf()).toMatchObject({ status: 'canceled', cancellation_reason: PAYMENT_EMAIL_NOT_GIVEN });
    expect((await canceled).data).toMatchObject({
      user_id: userId,
      yookassa_payment_id: null,
      amount: '100.00',
      reason: PAYMENT_EMAIL_NOT_GIVEN,
    });
  });

  test('when a card payment is still unpaid past CARD_PAYMENT_TTL_SEC, then it is canceled as expired; one paid meanwhile is credited as recorded', async () => {
    const { deps } = h.billing;
    const afterTtl = (extraSec: number) => new Date(Date.now() + (deps.config.CARD_PAYMENT_TTL_SEC + extraSec) * 1000);
    const expire = (now: Date) => expireCardPayments(deps, deps.providers, now);
    const unpaid = await h.topUp({ amount: 120 });
    const paid = await h.topUp({ amount: 130 });
    const statusOf = async (paymentId: string) =>
      await deps.db
        .selectFrom('payments')
        .select(['status', 'cancellation_reason'])
        .where('payment_id', '=', paymentId)
        .executeTakeFirstOrThrow();

    await expire(afterTtl(-60));
    expect(await statusOf(unpaid.paymentId)).toEqual({ status: 'pending', cancellation_reason: null });

    // Paid at YooKassa, but its notification was lost: the expiry re-fetches it and credits what it recorded.
    h.yookassa.succeed(paid.remoteId);
    const canceled = deps.bus.waitFor(
      'published',
      (e) => e.type === 'payment.canceled' && (e.data as PaymentCanceledData).payment_id === unpaid.paymentId,
    );
    expect(await expire(afterTtl(1))).toBeGreaterThanOrEqual(2);
    expect(await statusOf(unpaid.paymentId)).toEqual({
      status: 'canceled',
      cancellation_reason: 'expired_on_confirmation',
    });
    expect((await canceled).data).toMatchObject({
      user_id: unpaid.userId,
      amount: '120.00',
      reason: 'expired_on_confirmation',
    });
    expect(await statusOf(paid.paymentId)).toMatchObject({ status: 'succeeded' });
    const balance = await h.call<{ credits: number }>('GET', '/api/billing/balance', {
      token: h.userToken(paid.userId),
    });
    expect(balance.body.credits).toBe(paid.payment.credits_amount);
  });

  test('when the Telegram user or the payment is unknown, or the key is missing, then 404 / 401', async () => {
    const unknownUser = await h.call('POST', '/api/bot/payments', { bot: true, body: { telegram_id: 1, amount: 5 } });
    expect(unknownUser).toMatchObject({ status: 404, body: { error: 'Пользователь не найден' } });
    const unknownPayment = await h.call('PATCH', '/api/bot/payments/nope/email', {
      bot: true,
      body: { email: 'a@example.com' },
    });
    expect(unknownPayment).toMatchObject({ status: 404, body: { error: 'Платёж не найден' } });
    expect((await h.call('POST', '/api/bot/payments', { body: { telegram_id: 1, amount: 5 } })).status).toBe(401);
  });
});

describe('GET /api/billing/payments/:id (the page after the provider)', () => {
  test("when the user asks for their payment, then they see it; someone else's is not found", async () => {
    const owner = await h.registerUser();
    const stranger = await h.registerUser();
    const { body } = await pay(owner, { amount: 15 });
    const own = await h.call('GET', `/api/billing/payments/${body.payment_id}`, { token: h.userToken(owner) });
    expect(own).toMatchObject({
      status: 200,
      body: { payment_id: body.payment_id, status: 'pending', amount: '15.00', kind: 'topup' },
    });
    const other = await h.call('GET', `/api/billing/payments/${body.payment_id}`, { token: h.userToken(stranger) });
    expect(other).toMatchObject({ status: 404, body: { error: 'Платёж не найден' } });
  });
});
