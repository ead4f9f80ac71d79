import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type {
  AdminPaymentsResponse,
  BotStarInvoiceResponse,
  BotStarPreCheckoutResponse,
  PublicTariffsResponse,
  UserPayment,
} from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
let nextCharge = 1;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

const telegramUser = () => h.registerTelegramUser();

const invoice = (telegramId: number, target: { amount?: string; tariff_id?: number }) =>
  h.call<BotStarInvoiceResponse>('POST', '/api/bot/stars/invoices', {
    bot: true,
    body: { telegram_id: telegramId, ...target },
  });

const preCheckout = (telegramId: number, payload: string, total: number, currency = 'XTR') =>
  h.call<BotStarPreCheckoutResponse>('POST', '/api/bot/stars/pre-checkout', {
    bot: true,
    body: { telegram_id: telegramId, invoice_payload: payload, currency, total_amount: total },
  });

/** Telegram's successful_payment of an invoice, as the bot hands it to billing. */
const pay = (telegramId: number, sent: BotStarInvoiceResponse, chargeId = `charge-${nextCharge++}`) =>
  h.call<UserPayment>('POST', '/api/bot/stars/payments', {
    bot: true,
    body: {
      telegram_id: telegramId,
      invoice_payload: sent.payload,
      currency: 'XTR',
      total_amount: sent.star_amount,
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: '',
    },
  });

async function paidTariff(name: string) {
  const { body } = await h.call<PublicTariffsResponse>('GET', '/api/tariffs');
  return body.tariffs.find((tariff) => tariff.name === name)!;
}

const setStarRate = (value: string, version: number) =>
  h.deliver('setting.changed', { key: 'star_rate_rub', value, version, changed_at: new Date().toISOString() });

describe('Stars top-up', () => {
  test('when a package is paid in stars, then the credits arrive once, as a telegram_stars payment worth its roubles', async () => {
    const { userId, telegramId } = await telegramUser();
    const sent = await invoice(telegramId, { amount: '300.00' });
    expect(sent.status).toBe(201);
    // 300 ₽ at 1.5 ₽ a star (the seeded rate).
    expect(sent.body).toMatchObject({ currency: 'XTR', star_amount: 200, amount: '300.00', credits_amount: 30_000 });
    expect(sent.body.title).toMatch(/^Пополнение на 30\s000 кредитов$/);
    expect((await preCheckout(telegramId, sent.body.payload, 200)).body).toEqual({ ok: true });

    const succeeded = h.billing.deps.bus.waitFor(
      'published',
      (e) => e.type === 'payment.succeeded' && (e.data as { user_id: number }).user_id === userId,
    );
    const paid = await pay(telegramId, sent.body);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'succeeded',
      provider: 'telegram_stars',
      star_amount: 200,
      amount: '300.00',
    });
    expect((await succeeded).data).toMatchObject({
      provider: 'telegram_stars',
      star_amount: 200,
      amount: '300.00',
      credits_amount: 30_000,
      yookassa_payment_id: null,
    });
    expect((await h.balance(userId)).credits).toBe(30_000);

    const history = await h.call<{ payments: UserPayment[] }>('GET', '/api/billing/payments', {
      token: h.userToken(userId),
    });
    expect(history.body.payments).toEqual([expect.objectContaining({ provider: 'telegram_stars', star_amount: 200 })]);
  });

  test('when the same successful_payment arrives twice, also at once, then it credits once', async () => {
    const { userId, telegramId } = await telegramUser();
    const sent = (await invoice(telegramId, { amount: '100.00' })).body;
    const [first, second] = await Promise.all([
      pay(telegramId, sent, 'charge-twice'),
      pay(telegramId, sent, 'charge-twice'),
    ]);
    const third = await pay(telegramId, sent, 'charge-twice');
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(new Set([first.body.payment_id, second.body.payment_id, third.body.payment_id]).size).toBe(1);
    expect((await h.balance(userId)).credits).toBe(10_000);
    const rows = await h.billing.deps.db.selectFrom('payments').select('id').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
  });

  test('when the package is not one the bot offers, then no invoice is made', async () => {
    const { telegramId } = await telegramUser();
    const res = await invoice(telegramId, { amount: '123.00' });
    expect(res.status).toBe(400);
  });
});

describe('Stars tariff purchase', () => {
  test('when a paid tariff is paid in stars, then the user is on it for a month with its included credits', async () => {
    const { userId, telegramId } = await telegramUser();
    const premium = await paidTariff('Premium');
    const sent = (await invoice(telegramId, { tariff_id: premium.id })).body;
    // ⌈350 / 1.5⌉ = 234 stars.
    expect(sent).toMatchObject({ kind: 'tariff', star_amount: 234, amount: '350.00', credits_amount: 70_000 });
    expect(sent.description).toContain('Premium');
    expect((await preCheckout(telegramId, sent.payload, 234)).body.ok).toBe(true);
    expect((await pay(telegramId, sent)).status).toBe(200);
    const balance = await h.call<{ included_credits: number; tariff: { name: string; end_date: string } }>(
      'GET',
      '/api/billing/balance',
      { token: h.userToken(userId) },
    );
    expect(balance.body).toMatchObject({ included_credits: 70_000, tariff: { name: 'Premium' } });
    expect(balance.body.tariff.end_date).not.toBeNull();
  });
});

describe('POST /api/bot/stars/pre-checkout', () => {
  test('when the payload was edited by the client, or the total or currency differ, then it is declined in Russian', async () => {
    const { telegramId } = await telegramUser();
    const sent = (await invoice(telegramId, { amount: '100.00' })).body;
    const edited = `${sent.payload.slice(0, -1)}${sent.payload.endsWith('0') ? '1' : '0'}`;
    for (const answer of [
      await preCheckout(telegramId, edited, sent.star_amount),
      await preCheckout(telegramId, `${sent.payload}:amount=1`, sent.star_amount),
      await preCheckout(telegramId, sent.payload, sent.star_amount - 1),
      await preCheckout(telegramId, sent.payload, sent.star_amount, 'RUB'),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ok: false, error_message: expect.stringMatching(/^Счёт не найден или изменён/) });
    }
    const stranger = await telegramUser();
    expect((await preCheckout(stranger.telegramId, sent.payload, sent.star_amount)).body.ok).toBe(false);
  });

  test('when the tariff price or the star rate changed since the invoice, then it is declined', async () => {
    const { telegramId } = await telegramUser();
    const elite = await paidTariff('Elite');
    const sent = (await invoice(telegramId, { tariff_id: elite.id })).body;
    const admin = h.adminToken();
    const put = await h.call('PUT', `/api/admin/tariffs/${elite.id}`, {
      token: admin,
      body: { ...elite, monthly_price: '1300.00', is_active: true },
    });
    expect(put.status).toBe(200);
    expect((await preCheckout(telegramId, sent.payload, sent.star_amount)).body).toEqual({
      ok: false,
      error_message: 'Цена изменилась. Откройте /buy, чтобы получить новый счёт.',
    });

    const topUp = (await invoice(telegramId, { amount: '500.00' })).body;
    await setStarRate('2', 1000);
    expect((await preCheckout(telegramId, topUp.payload, topUp.star_amount)).body.ok).toBe(false);
    expect((await invoice(telegramId, { amount: '500.00' })).body.star_amount).toBe(250);
    await setStarRate('1.5', 1001);
  });
});

describe('a Stars invoice holds what it buys at its moment', () => {
  test('when the payer moved to another tariff since the invoice, so the credits per rouble differ, then it is declined', async () => {
    const { telegramId } = await telegramUser();
    const onBase = (await invoice(telegramId, { amount: '500.00' })).body;
    const elite = (await invoice(telegramId, { tariff_id: (await paidTariff('Elite')).id })).body;
    expect((await pay(telegramId, elite)).status).toBe(200);

    expect((await preCheckout(telegramId, onBase.payload, onBase.star_amount)).body).toEqual({
      ok: false,
      error_message:
        'Число кредитов за эту покупку изменилось (сменился тариф). Откройте /buy, чтобы получить новый счёт.',
    });
    const onElite = (await invoice(telegramId, { amount: '500.00' })).body;
    expect(onElite.credits_amount).toBeGreaterThan(onBase.credits_amount);
    expect((await preCheckout(telegramId, onElite.payload, onElite.star_amount)).body).toEqual({ ok: true });
  });

  test('when the invoice is older than an hour, then it is declined as stale', async () => {
    const { telegramId } = await telegramUser();
    const sent = (await invoice(telegramId, { amount: '100.00' })).body;
    await h.billing.deps.db
      .updateTable('star_invoices')
      .set({ created_at: new Date(Date.now() - 61 * 60_000) })
      .where('id', '=', sent.payload)
      .execute();
    expect((await preCheckout(telegramId, sent.payload, sent.star_amount)).body).toEqual({
      ok: false,
      error_message: 'Счёт устарел. Откройте /buy, чтобы получить новый счёт.',
    });
  });

  test('a payer gets at most RATE_LIMIT_PAYMENT_POINTS invoices in the window, then 429 in Russian', async () => {
    const { telegramId } = await telegramUser();
    for (let i = 0; i < 10; i += 1) expect((await invoice(telegramId, { amount: '100.00' })).status).toBe(201);
    const refused = await invoice(telegramId, { amount: '100.00' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'Слишком много платежей, попробуйте позже' });
  });
});

describe('GET /api/admin/payments', () => {
  test('when filtered by provider, then only Stars payments come, with their star amount', async () => {
    const { telegramId } = await telegramUser();
    const sent = (await invoice(telegramId, { amount: '1000.00' })).body;
    await pay(telegramId, sent);
    const res = await h.call<AdminPaymentsResponse>('GET', '/api/admin/payments?provider=telegram_stars&limit=50', {
      token: h.adminToken(),
    });
    expect(res.status).toBe(200);
    expect(res.body.payments.length).toBeGreaterThan(0);
    expect(res.body.payments.every((p) => p.provider === 'telegram_stars' && p.star_amount !== null)).toBe(true);
    const cards = await h.call<AdminPaymentsResponse>('GET', '/api/admin/payments?provider=yookassa', {
      token: h.adminToken(),
    });
    expect(cards.body.payments.every((p) => p.provider === 'yookassa')).toBe(true);
  });
});
