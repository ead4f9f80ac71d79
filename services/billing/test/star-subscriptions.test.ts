import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readRequestBody, sendJson } from '@gpt/kit/testing';
import type { BotStarInvoiceResponse, UserPayment, UserSubscription, UserSubscriptionsResponse } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
/** The bot as billing reaches it: the Stars subscriptions it was asked to cancel at Telegram, and its next answer. */
const botCalls: { path: string; key: string | undefined; body: unknown }[] = [];
let botAnswer = 204;
let bot: Server;
let nextCharge = 1;
const PREMIUM = 2;
const MONTH = 2_592_000;

beforeAll(async () => {
  bot = createServer((req, res) => {
    void readRequestBody(req).then((raw) => {
      botCalls.push({
        path: req.url ?? '',
        key: req.headers['x-bot-key'] as string | undefined,
        body: JSON.parse(raw),
      });
      if (botAnswer === 204) res.writeHead(204).end();
      else sendJson(res, botAnswer, { error: 'Bad Request: CHARGE_NOT_FOUND' });
    });
  });
  await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve));
  const { port } = bot.address() as AddressInfo;
  h = await startBillingHarness({ RENEWAL_INTERVAL_SEC: '3600', BOT_URL: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await h.stop();
  await new Promise((resolve) => bot.close(resolve));
});

const telegramUser = () => h.registerTelegramUser();

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

  test('cancelled by the bot after Telegram, it can be turned back on before its end; the site and an admin cancel at Telegram first', async () => {
    const { userId, telegramId } = await telegramUser();
    const sent = (await subscriptionInvoice(telegramId)).body;
    await paid(telegramId, sent, Math.floor(Date.now() / 1000) + MONTH, true, 'site-cancel-charge');
    const [subscription] = await botSubscriptions(telegramId);

    // Telegram refuses: nothing is recorded as canceled, so no charge can follow a cancel that never happened there.
    botAnswer = 400;
    const refused = await h.call('DELETE', `/api/billing/subscriptions/${subscription!.id}`, {
      token: h.userToken(userId),
    });
    expect(refused).toMatchObject({ status: 502, body: { code: 'telegram_cancel_failed' } });
    expect((await botSubscriptions(telegramId))[0]).toMatchObject({ status: 'active' });
    botAnswer = 204;
    const bySite = await h.call('DELETE', `/api/billing/subscriptions/${subscription!.id}`, {
      token: h.userToken(userId),
    });
    expect(bySite).toMatchObject({ status: 200, body: { status: 'canceled' } });
    expect(botCalls.at(-1)).toEqual({
      path: '/internal/stars/subscriptions/cancel',
      key: h.botKey,
      body: { telegram_id: telegramId, telegram_payment_charge_id: 'site-cancel-charge' },
    });
    await h.call('POST', `/api/bot/subscriptions/${subscription!.id}/resume`, {
      bot: true,
      body: { telegram_id: telegramId },
    });
    const byAdmin = await h.call('POST', `/api/admin/subscriptions/${subscription!.id}/cancel`, {
      token: h.adminToken(),
      body: { reason: 'Просьба пользователя' },
    });
    expect(byAdmin).toMatchObject({ status: 200, body: { status: 'canceled' } });
    expect(botCalls).toHaveLength(3);
    await h.call('POST', `/api/bot/subscriptions/${subscription!.id}/resume`, {
      bot: true,
      body: { telegram_id: telegramId },
    });

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
