import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { BotStarInvoiceResponse, UserPayment, UserSubscription, UserSubscriptionsResponse } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
let nextTelegramId = 7_900_000;
let nextCharge = 1;
const PREMIUM = 2;
const MONTH = 2_592_000;

beforeAll(async () => {
  h = await startBillingHarness({ RENEWAL_INTERVAL_SEC: '3600' });
});
afterAll(() => h.stop());

async function telegramUser() {
  const telegramId = nextTelegramId++;
  const userId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
  return { userId, telegramId };
}

const subscriptionInvoice = (telegramId: number, body: object = { tariff_id: PREMIUM, subscription: true }) =>
  h.call<BotStarInvoiceResponse>('POST', '/api/bot/stars/invoices', {
    bot: true,
    body: { telegram_id: telegramId, ...body },
  });

/** Telegram's successful_payment of the subscription (the first, or a renewal 30 days later), as the bot hands it on. */
const paid = (
  telegramId: number,
  sent: BotStarInvoiceResponse,
  expiration: number,
  first: boolean,
  chargeId = `sub-charge-${nextCharge++}`,
) =>
  h.call<UserPayment>('POST', '/api/bot/stars/payments', {
    bot: true,
    body: {
      telegram_id: telegramId,
      invoice_payload: sent.payload,
      currency: 'XTR',
      total_amount: sent.star_amount,
      telegram_payment_charge_id: chargeId,
      is_recurring: true,
      ...(first ? { is_first_recurring: true } : {}),
      subscription_expiration_date: expiration,
    },
  });

const botSubscriptions = async (telegramId: number) =>
  (await h.call<UserSubscriptionsResponse>('GET', `/api/bot/subscriptions?telegram_id=${telegramId}`, { bot: true }))
    .body.subscriptions;

const tariffEnd = async (userId: number) =>
  ((await h.balance(userId)) as unknown as { tariff: { id: number; end_date: string } }).tariff;

describe('Telegram Stars subscriptions', () => {
  test('an invoice link for 30 days of a paid tariff; none for a top-up, none above 10 000 stars', async () => {
    const { telegramId } = await telegramUser();
    const sent = await subscriptionInvoice(telegramId);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      currency: 'XTR',
      star_amount: 234,
      subscription_period: MONTH,
      tariff_id: PREMIUM,
    });
    const topUp = await subscriptionInvoice(telegramId, { amount: '300.00', subscription: true });
    expect(topUp).toMatchObject({ status: 400, body: { error: 'Подписка бывает только на тариф' } });

    await h.deliver('setting.changed', {
      key: 'star_rate_rub',
      value: '0.01',
      version: 1000,
      changed_at: new Date().toISOString(),
    });
    const dear = await subscriptionInvoice(telegramId, { tariff_id: 3, subscription: true });
    expect(dear).toMatchObject({ status: 409, body: { code: 'star_subscription_too_dear' } });
    await h.deliver('setting.changed', {
      key: 'star_rate_rub',
      value: '1.5',
      version: 1001,
      changed_at: new Date().toISOString(),
    });
  });

  test('paid: the subscription starts, the tariff runs to Telegram’s expiration; each renewal extends once per charge id', async () => {
    const { userId, telegramId } = await telegramUser();
    const sent = (await subscriptionInvoice(telegramId)).body;
    const expiration = Math.floor(Date.now() / 1000) + MONTH;
    const first = await paid(telegramId, sent, expiration, true, 'first-charge-1');
    expect(first.status).toBe(200);
    expect(await paid(telegramId, sent, expiration, true, 'first-charge-1')).toMatchObject({ status: 200 });

    const [started] = await botSubscriptions(telegramId);
    expect(started).toMatchObject({
      status: 'active',
      method: 'telegram_stars',
      star_price: 234,
      telegram_charge_id: 'first-charge-1',
      paid_until: new Date(expiration * 1000).toISOString(),
    });
    expect(await tariffEnd(userId)).toMatchObject({ id: PREMIUM, end_date: new Date(expiration * 1000).toISOString() });

    const renewal = await paid(telegramId, sent, expiration + MONTH, false, 'renewal-charge-1');
    expect(renewal.status).toBe(200);
    await paid(telegramId, sent, expiration + MONTH, false, 'renewal-charge-1');
    const [renewed] = await botSubscriptions(telegramId);
    expect(renewed).toMatchObject({
      status: 'active',
      paid_until: new Date((expiration + MONTH) * 1000).toISOString(),
    });
    expect(await tariffEnd(userId)).toMatchObject({ end_date: new Date((expiration + MONTH) * 1000).toISOString() });
    const included = ((await h.balance(userId)) as unknown as { included_credits: number }).included_credits;
    expect(included).toBe(140_000);
    const entries = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select('reference')
      .where('user_id', '=', userId)
      .where('reason', '=', 'tariff_purchase')
      .execute();
    expect(entries).toHaveLength(2);
  });

  test('cancelled through Telegram (the bot first), it can be turned back on before its end; the site cannot cancel it alone', async () => {
    const { userId, telegramId } = await telegramUser();
    const sent = (await subscriptionInvoice(telegramId)).body;
    await paid(telegramId, sent, Math.floor(Date.now() / 1000) + MONTH, true);
    const [subscription] = await botSubscriptions(telegramId);

    const bySite = await h.call('DELETE', `/api/billing/subscriptions/${subscription!.id}`, {
      token: h.userToken(userId),
    });
    expect(bySite).toMatchObject({ status: 409, body: { code: 'subscription_not_card' } });

    const stranger = await telegramUser();
    expect(
      (
        await h.call('POST', `/api/bot/subscriptions/${subscription!.id}/cancel`, {
          bot: true,
          body: { telegram_id: stranger.telegramId },
        })
      ).status,
    ).toBe(404);
    const canceled = await h.call<UserSubscription>('POST', `/api/bot/subscriptions/${subscription!.id}/cancel`, {
      bot: true,
      body: { telegram_id: telegramId },
    });
    expect(canceled).toMatchObject({ status: 200, body: { status: 'canceled', next_charge_at: null } });
    const resumed = await h.call<UserSubscription>('POST', `/api/bot/subscriptions/${subscription!.id}/resume`, {
      bot: true,
      body: { telegram_id: telegramId },
    });
    expect(resumed).toMatchObject({ status: 200, body: { status: 'active' } });
  });
});
