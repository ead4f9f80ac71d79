import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { CreatePaymentResponse } from '@gpt/contracts';
import { sql } from 'kysely';
import { addressMatcher } from '../src/http/notification-source';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

/** A top-up a new user starts through the API; answers our payment and the provider's id for it. */
const topUp = (amount: string | number) => h.topUp({ amount });

const paymentRow = (paymentId: string) =>
  h.billing.deps.db.selectFrom('payments').selectAll().where('payment_id', '=', paymentId).executeTakeFirstOrThrow();

/** Events billing wrote to its outbox about a payment (each is published once). */
async function eventsAbout(paymentId: string) {
  const rows = await h.billing.deps.db
    .selectFrom('outbox')
    .select('type')
    .where(sql<string>`payload`, 'like', `%${paymentId}%`)
    .execute();
  return rows.map((row) => row.type).sort();
}

describe('POST /api/billing/webhooks/yookassa', () => {
  test('when the same succeeded notification arrives 10 times at once and out of order, then the top-up is credited exactly once', async () => {
    const { userId, paymentId, remoteId, id } = await topUp('350.50');
    // Before the payer pays, a notification changes nothing (the provider still says pending).
    const early = await h.yookassa.notify(h.webhookUrl, remoteId, 'payment.waiting_for_capture');
    expect(early.status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('pending');

    h.yookassa.succeed(remoteId);
    const events = ['payment.succeeded', 'payment.waiting_for_capture', 'payment.canceled', 'payment.succeeded'];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.yookassa.notify(h.webhookUrl, remoteId, events[i % events.length])),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));

    const balance = await h.balance(userId);
    expect(balance).toMatchObject({ credits: 35_050, money_deposited: '350.50', version: 2 });
    const entries = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select(['reference', 'amount', 'payment_id'])
      .where('user_id', '=', userId)
      .execute();
    expect(entries).toEqual([{ reference: `payment:${id}`, amount: '35050', payment_id: id }]);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded', yookassa_payment_id: remoteId });
    expect(await eventsAbout(paymentId)).toEqual(['payment.succeeded']);
  });

  test("when one user's payments are all notified at once, each several times, then each is credited exactly once", async () => {
    const userId = await h.registerUser();
    const token = h.userToken(userId);
    const amounts = ['10.00', '20.00', '30.00', '40.00', '50.00'];
    const remoteIds: string[] = [];
    for (const amount of amounts) {
      const { body } = await h.call<CreatePaymentResponse>('POST', '/api/billing/payments', {
        token,
        body: { amount },
      });
      const remoteId = (await paymentRow(body.payment_id)).yookassa_payment_id!;
      h.yookassa.succeed(remoteId);
      remoteIds.push(remoteId);
    }
    const answers = await Promise.all(
      [...remoteIds, ...remoteIds, ...remoteIds].map((remoteId) => h.yookassa.notify(h.webhookUrl, remoteId)),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(15).fill(200));
    expect(await h.balance(userId)).toMatchObject({ credits: 15_000, money_deposited: '150.00', version: 6 });
  });

  test('when the provider reports the payment canceled, then ours is canceled with the reason and no credits', async () => {
    const { userId, paymentId, remoteId } = await topUp(99);
    h.yookassa.cancel(remoteId, 'card_expired', 'payment_network');
    expect((await h.yookassa.notify(h.webhookUrl, remoteId, 'payment.canceled')).status).toBe(200);
    // A late "succeeded" notification is re-checked: the provider still says canceled.
    expect((await h.yookassa.notify(h.webhookUrl, remoteId, 'payment.succeeded')).status).toBe(200);

    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'card_expired',
      cancellation_party: 'payment_network',
    });
    expect((await h.balance(userId)).credits).toBe(0);
    expect(await eventsAbout(paymentId)).toEqual(['payment.canceled']);
    const detail = await h.call('GET', `/api/admin/payments/${(await paymentRow(paymentId)).id}`, {
      token: h.adminToken(),
    });
    expect(detail.body).toMatchObject({ status: 'canceled', cancellation_reason: 'card_expired' });
  });

  test('when the provider holds the payment waiting for capture, then billing captures it and credits it', async () => {
    const { userId, remoteId } = await topUp(10);
    h.yookassa.waitForCapture(remoteId);
    expect((await h.yookassa.notify(h.webhookUrl, remoteId, 'payment.waiting_for_capture')).status).toBe(200);
    const capture = h.yookassa.requestsTo('POST', `/payments/${remoteId}/capture`);
    expect(capture).toHaveLength(1);
    expect(capture[0]!.body).toEqual({ amount: { value: '10.00', currency: 'RUB' } });
    expect(capture[0]!.headers['idempotence-key']).toBeTruthy();
    expect((await h.balance(userId)).credits).toBe(1000);
  });
});

describe('forged notifications change nothing', () => {
  test('when the payment id is unknown to the provider, then 400 and nothing changes', async () => {
    const { userId, paymentId } = await topUp(50);
    const res = await h.yookassa.notify(h.webhookUrl, 'f0f0f0f0-0000-5000-9000-000000000000', 'payment.succeeded', {
      id: 'f0f0f0f0-0000-5000-9000-000000000000',
      status: 'succeeded',
      amount: { value: '50.00', currency: 'RUB' },
      metadata: { payment_id: paymentId, user_id: String(userId) },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'unknown_payment' });
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect((await h.balance(userId)).credits).toBe(0);
  });

  test('when a paid provider payment carries our metadata but a smaller amount, then 400 and ours stays pending', async () => {
    const { userId, paymentId } = await topUp(500);
    const cheap = h.yookassa.addPayment({
      status: 'succeeded',
      paid: true,
      amount: { value: '1.00', currency: 'RUB' },
      metadata: { payment_id: paymentId, user_id: String(userId), kind: 'topup' },
    });
    const res = await h.yookassa.notify(h.webhookUrl, cheap.id);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'payment_mismatch' });
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending' });
    expect((await h.balance(userId)).credits).toBe(0);
    expect(await eventsAbout(paymentId)).toEqual([]);
  });

  test('when the notification says succeeded but the provider says pending, then nothing is credited', async () => {
    const { userId, paymentId, remoteId } = await topUp(70);
    const res = await h.yookassa.notify(h.webhookUrl, remoteId, 'payment.succeeded', {
      id: remoteId,
      status: 'succeeded',
      paid: true,
      amount: { value: '70.00', currency: 'RUB' },
    });
    expect(res.status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect((await h.balance(userId)).credits).toBe(0);
  });

  test('when the body is not a notification, then 400 with a message', async () => {
    const res = await fetch(h.webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: 'payment.succeeded' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_error' });
  });

  test('when the provider cannot be reached to re-check, then 503 so that it sends again later', async () => {
    const { paymentId, remoteId } = await topUp(20);
    h.yookassa.succeed(remoteId);
    await h.yookassa.stop();
    try {
      const res = await h.yookassa.notify(h.webhookUrl, remoteId);
      expect(res.status).toBe(503);
      expect((await paymentRow(paymentId)).status).toBe('pending');
    } finally {
      await h.yookassa.start();
    }
  });
});

describe('the allowlist of notification addresses (YOOKASSA_TRUSTED_IPS)', () => {
  test('when entries are CIDR subnets, then addresses are matched by prefix, IPv4 and IPv6 alike', () => {
    const allowed = addressMatcher(['185.71.76.0/27', '77.75.156.11', '2a02:5180::/32']);
    expect(allowed('185.71.76.0')).toBe(true);
    expect(allowed('185.71.76.31')).toBe(true);
    expect(allowed('185.71.76.32')).toBe(false);
    expect(allowed('77.75.156.11')).toBe(true);
    expect(allowed('77.75.156.12')).toBe(false);
    expect(allowed('2a02:5180:0:1::7')).toBe(true);
    expect(allowed('2a02:5181::1')).toBe(false);
    expect(allowed('not-an-ip')).toBe(false);
  });

  test('when the list is on, then only notifications from listed addresses (as the gateway saw them) are heard', async () => {
    const guarded = await startBillingHarness({
      YOOKASSA_TRUSTED_IPS: '185.71.76.0/27, 2a02:5180::/32',
      BILLING_TRUST_PROXY: '127.0.0.1',
    });
    try {
      const send = (forwardedFor?: string) =>
        fetch(guarded.webhookUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
          body: JSON.stringify({ type: 'notification', event: 'payment.succeeded', object: { id: 'x' } }),
        });
      const outside = await send('185.71.76.32');
      expect(outside.status).toBe(403);
      expect(await outside.json()).toMatchObject({ code: 'untrusted_notification_source' });
      expect((await send()).status).toBe(403);
      // Listed: it passes the check and reaches the re-fetch (the provider does not know "x").
      expect((await send('10.0.0.1, 185.71.76.5')).status).toBe(400);
      expect((await send('2a02:5180::10')).status).toBe(400);
    } finally {
      await guarded.stop();
    }
  });

  test('when the sender is not a trusted proxy, then its X-Forwarded-For is not believed', async () => {
    const guarded = await startBillingHarness({
      YOOKASSA_TRUSTED_IPS: '185.71.76.0/27',
      BILLING_TRUST_PROXY: '10.9.9.9',
    });
    try {
      const res = await fetch(guarded.webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '185.71.76.5' },
        body: JSON.stringify({ type: 'notification', event: 'payment.succeeded', object: { id: 'x' } }),
      });
      expect(res.status).toBe(403);
    } finally {
      await guarded.stop();
    }
  });
});
