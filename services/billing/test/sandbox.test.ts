import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { SandboxPayment } from '@gpt/contracts';
import { ConfigError } from '@gpt/kit';
import { sandboxDecisionCall, TEST_SECRETS } from '@gpt/kit/testing';
import { loadBillingConfig } from '../src/config';
import { expireCardPayments } from '../src/domain/settle-payment';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  // No YooKassa keys: the embedded default's sandbox provider.
  h = await startBillingHarness({ YOOKASSA_SHOP_ID: '', YOOKASSA_SECRET_KEY: '' });
});
afterAll(() => h.stop());

async function topUp(amount: number) {
  const { userId, payment: body } = await h.topUp({ amount });
  const sandboxId = new URL(body.confirmation_url!).pathname.split('/').pop()!;
  /** The page's decision call, with the link's key. */
  const decide = (decision: 'succeeded' | 'canceled', options: { token?: string; key?: string } = {}) => {
    const call = sandboxDecisionCall(body.confirmation_url!, decision);
    return h.call<SandboxPayment>('POST', call.path, {
      body: { ...call.body, ...('key' in options ? { key: options.key } : {}) },
      ...(options.token ? { token: options.token } : {}),
    });
  };
  return { userId, payment: body, sandboxId, decide };
}

describe('the sandbox provider (no YooKassa keys)', () => {
  test('when a user tops up, then the confirmation page is on the site and paying there credits through the webhook path', async () => {
    const { userId, payment, sandboxId, decide } = await topUp(250);
    expect(payment.confirmation_url).toMatch(
      new RegExp(`^https://site\\.example/payment/sandbox/${sandboxId}\\?key=[\\w-]{43}$`),
    );
    expect(h.yookassa.requests).toHaveLength(0);

    const page = await h.call<SandboxPayment>('GET', `/api/billing/sandbox/payments/${sandboxId}`);
    expect(page.body).toEqual({
      id: sandboxId,
      status: 'pending',
      amount: '250.00',
      description: 'Пополнение баланса на 250,00\u00a0₽',
      return_url: `https://site.example/payment/result?payment_id=${payment.payment_id}`,
    });

    const paid = await decide('succeeded');
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await h.balance(userId)).toMatchObject({ credits: 25_000, money_deposited: '250.00' });
    const own = await h.call('GET', `/api/billing/payments/${payment.payment_id}`, { token: h.userToken(userId) });
    expect(own.body).toMatchObject({ status: 'succeeded' });

    const twice = await decide('succeeded');
    expect(twice).toMatchObject({ status: 409, body: { error: 'Платёж уже завершён' } });
    // The provider-style notification for it is a duplicate.
    const notification = await h.yookassa.notify(h.webhookUrl, sandboxId);
    expect(notification.status).toBe(200);
    expect((await h.balance(userId)).credits).toBe(25_000);
  });

  test('when a payment is left unpaid past CARD_PAYMENT_TTL_SEC, then it is canceled as expired and its page takes no payment', async () => {
    const { userId, payment, sandboxId, decide } = await topUp(40);
    const { deps } = h.billing;
    await expireCardPayments(
      deps,
      deps.providers,
      new Date(Date.now() + (deps.config.CARD_PAYMENT_TTL_SEC + 1) * 1000),
    );
    const own = await h.call('GET', `/api/billing/payments/${payment.payment_id}`, { token: h.userToken(userId) });
    expect(own.body).toMatchObject({ status: 'canceled', cancellation_reason: 'expired_on_confirmation' });
    const page = await h.call<SandboxPayment>('GET', `/api/billing/sandbox/payments/${sandboxId}`);
    expect(page.body).toMatchObject({ status: 'canceled' });
    expect(await decide('succeeded')).toMatchObject({ status: 409, body: { error: 'Платёж уже завершён' } });
    expect((await h.balance(userId)).credits).toBe(0);
  });

  test('when the payer cancels on the sandbox page, then the payment is canceled and nothing is credited', async () => {
    const { userId, payment, decide } = await topUp(10);
    expect((await decide('canceled')).status).toBe(200);
    const own = await h.call('GET', `/api/billing/payments/${payment.payment_id}`, { token: h.userToken(userId) });
    expect(own.body).toMatchObject({ status: 'canceled' });
    expect((await h.balance(userId)).credits).toBe(0);
  });

  test('when someone decides without the link’s key and is not the signed-in payer, then 403 and nothing changes', async () => {
    const { userId, payment, decide } = await topUp(50);
    const stranger = await h.registerUser();
    for (const attempt of [
      decide('succeeded', { key: undefined }),
      decide('succeeded', { key: 'x'.repeat(43) }),
      decide('succeeded', { key: undefined, token: h.userToken(stranger) }),
    ]) {
      expect(await attempt).toMatchObject({ status: 403, body: { code: 'sandbox_payment_forbidden' } });
    }
    expect((await h.balance(userId)).credits).toBe(0);
    // The payer signed in needs no key.
    expect(await decide('succeeded', { key: undefined, token: h.userToken(userId) })).toMatchObject({
      status: 200,
      body: { status: 'succeeded' },
    });
    const own = await h.call('GET', `/api/billing/payments/${payment.payment_id}`, { token: h.userToken(userId) });
    expect(own.body).toMatchObject({ status: 'succeeded' });
  });

  test('when the sandbox payment is unknown or the decision is wrong, then 404 / 400', async () => {
    expect((await h.call('GET', '/api/billing/sandbox/payments/nope')).status).toBe(404);
    const { sandboxId } = await topUp(1);
    const bad = await h.call('POST', `/api/billing/sandbox/payments/${sandboxId}/decision`, {
      body: { decision: 'maybe' },
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: 'Решение: succeeded (оплатить) или canceled (отменить)' },
    });
  });
});

describe('billing configuration', () => {
  test('when only one YooKassa key is set, or production has none, then the start is refused with the reason', () => {
    expect(() => loadBillingConfig({ YOOKASSA_SHOP_ID: '1' })).toThrow(ConfigError);
    expect(() =>
      loadBillingConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), BOT_API_KEY: 'bot-key-123' }),
    ).toThrow(/YooKassa keys are required in production/);
    expect(() => loadBillingConfig({ YOOKASSA_TRUSTED_IPS: '185.71.76.0/33' })).toThrow(/CIDR/);
    expect(() => loadBillingConfig({ YOOKASSA_TRUSTED_IPS: '0.0.0.0/0' })).toThrow(/admits everyone/);
    expect(
      loadBillingConfig({ ...TEST_SECRETS, YOOKASSA_TRUSTED_IPS: ' 185.71.76.0/27 , 77.75.156.11 ' })
        .YOOKASSA_TRUSTED_IPS,
    ).toEqual(['185.71.76.0/27', '77.75.156.11']);
  });
});
