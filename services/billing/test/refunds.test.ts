import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { CreatePaymentResponse, PublicTariffsResponse, RefundPaymentResponse } from '@gpt/contracts';
import { sampleMessageRecorded } from '@gpt/kit/testing';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
let nextMessageId = 900_000;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

const refund = (id: number) =>
  h.call<RefundPaymentResponse & { error?: string; code?: string }>('POST', `/api/admin/payments/${id}/refund`, {
    token: h.adminToken(),
  });

const refundEntries = (userId: number) =>
  h.billing.deps.db
    .selectFrom('ledger_entries')
    .select(['amount', 'bucket', 'reason', 'description'])
    .where('user_id', '=', userId)
    .where('reason', '=', 'payment_refund')
    .execute();

const refundedEvents = async (paymentId: string) =>
  (await h.billing.deps.db.selectFrom('outbox').select('payload').where('type', '=', 'payment.refunded').execute())
    .map((row) => JSON.parse(row.payload) as { data: { payment_id: string } })
    .filter((event) => event.data.payment_id === paymentId);

describe('POST /api/admin/payments/{id}/refund', () => {
  test('when a card top-up is refunded, then YooKassa returns the money and the ledger takes back exactly its credits', async () => {
    const userId = await h.registerUser();
    await h.payByCard(userId, { amount: '50.00' });
    const id = await h.payByCard(userId, { amount: '100.00' });
    expect((await h.balance(userId)).credits).toBe(15_000);

    const res = await refund(id);
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ id, status: 'refunded', provider: 'yookassa' });
    expect(res.body.payment.refund_id).toBeTruthy();
    expect(res.body.payment.refunded_at).toBeTruthy();
    expect((await h.balance(userId)).credits).toBe(5_000);
    expect(await refundEntries(userId)).toEqual([
      { amount: '-10000', bucket: 'credits', reason: 'payment_refund', description: `Возврат платежа ${id}` },
    ]);

    const [asked] = h.yookassa.requestsTo('POST', '/refunds');
    expect(asked!.headers['idempotence-key']).toEqual(expect.any(String));
    expect(asked!.body).toMatchObject({
      amount: { value: '100.00', currency: 'RUB' },
      receipt: { customer: { email: `user${userId}@example.com` }, items: [{ amount: { value: '100.00' } }] },
    });
    expect(h.yookassa.refunds.get(res.body.payment.refund_id!)?.status).toBe('succeeded');
    expect(await refundedEvents(res.body.payment.payment_id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ credits_amount: 10_000, amount: '100.00' }) }),
    ]);
    const balance = await h.call<{ money_deposited: string }>('GET', '/api/billing/balance', {
      token: h.userToken(userId),
    });
    expect(balance.body.money_deposited).toBe('50.00');
  });

  test('when the user has spent part of the credits, then the refund is refused with how many are missing', async () => {
    const userId = await h.registerUser();
    const id = await h.payByCard(userId, { amount: '100.00' });
    await h.deliver('message.recorded', sampleMessageRecorded(nextMessageId++, userId, { cost: 2_500 }));

    const res = await refund(id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/не хватает 2\s500 кредитов/);
    expect((await h.balance(userId)).credits).toBe(7_500);
    expect(await refundEntries(userId)).toEqual([]);
    const row = await h.billing.deps.db
      .selectFrom('payments')
      .select(['status', 'refund_started_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'succeeded', refund_started_at: null });
  });

  test('when the refund is clicked twice at once and again later, then the money and the credits go back once', async () => {
    const userId = await h.registerUser();
    const id = await h.payByCard(userId, { amount: '200.00' });
    const before = h.yookassa.refunds.size;

    const answers = await Promise.all([refund(id), refund(id)]);
    const again = await refund(id);
    expect([...answers, again].map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set([...answers, again].map((answer) => answer.body.payment.refund_id)).size).toBe(1);
    expect(h.yookassa.refunds.size - before).toBe(1);
    expect((await h.balance(userId)).credits).toBe(0);
    expect(await refundEntries(userId)).toHaveLength(1);
    expect(await refundedEvents(answers[0].body.payment.payment_id)).toHaveLength(1);
  });

  test('when the refund was made but its answers were lost, then a retry under any Idempotency-Key asks YooKassa with the first key again and the money goes back once', async () => {
    const userId = await h.registerUser();
    const id = await h.payByCard(userId, { amount: '70.00' });
    const asked = () => h.yookassa.requestsTo('POST', '/refunds').map((r) => r.headers['idempotence-key']);
    const before = asked().length;
    const keyed = (key: string) =>
      h.call<RefundPaymentResponse & { code?: string }>('POST', `/api/admin/payments/${id}/refund`, {
        token: h.adminToken(),
        headers: { 'Idempotency-Key': key },
      });
    // The first request and both of billing's own retries reach YooKassa, whose answers are lost.
    h.yookassa.lostRefundAnswers = 3;

    const lost = await keyed('first-dialog');
    expect(lost.status).toBe(503);
    const again = await keyed('dialog-opened-again');

    expect(again.status).toBe(200);
    expect(again.body.payment).toMatchObject({ id, status: 'refunded' });
    const keys = asked().slice(before);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    // The try's key is the action id of the admin's first key, not one made up from the payment.
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await refundEntries(userId)).toHaveLength(1);
    expect(await refundedEvents(again.body.payment.payment_id)).toHaveLength(1);
  });

  test('when a tariff purchase is refunded, then the tariff and its included credits are taken back', async () => {
    const userId = await h.registerUser();
    const { body } = await h.call<PublicTariffsResponse>('GET', '/api/tariffs');
    const premium = body.tariffs.find((tariff) => tariff.name === 'Premium')!;
    const id = await h.payByCard(userId, { tariff_id: premium.id });

    expect((await refund(id)).status).toBe(200);
    const balance = await h.call<{ included_credits: number; tariff: { name: string; end_date: string | null } }>(
      'GET',
      '/api/billing/balance',
      { token: h.userToken(userId) },
    );
    expect(balance.body).toMatchObject({ included_credits: 0, tariff: { name: 'Base', end_date: null } });
  });

  test('when YooKassa refuses the refund, then the credits come back and the payment stays succeeded', async () => {
    const userId = await h.registerUser();
    const id = await h.payByCard(userId, { amount: '30.00' });
    h.yookassa.refuseRefunds = 'payment is too old to be refunded';
    try {
      const res = await refund(id);
      expect(res.status).toBe(502);
      expect(res.body.error).toContain('отказал в возврате');
    } finally {
      h.yookassa.refuseRefunds = null;
    }
    expect((await h.balance(userId)).credits).toBe(3_000);
    expect((await refund(id)).body.payment.status).toBe('refunded');
    expect((await h.balance(userId)).credits).toBe(0);
  });

  test('when the payment is not succeeded, or the caller is not an admin, then nothing is refunded', async () => {
    const userId = await h.registerUser();
    const { body } = await h.call<CreatePaymentResponse>('POST', '/api/billing/payments', {
      token: h.userToken(userId),
      body: { amount: '10.00' },
    });
    const row = await h.billing.deps.db
      .selectFrom('payments')
      .select('id')
      .where('payment_id', '=', body.payment_id)
      .executeTakeFirstOrThrow();
    const pending = await refund(row.id);
    expect(pending.status).toBe(409);
    expect(pending.body.error).toBe('Вернуть можно только успешный платёж');
    const asUser = await h.call('POST', `/api/admin/payments/${row.id}/refund`, { token: h.userToken(userId) });
    expect(asUser.status).toBe(403);
  });
});
