import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminPaymentsResponse, CreatePaymentResponse, Payment } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
let admin: string;
const made: Record<string, { userId: number; paymentId: string; id: number; remoteId: string }> = {};

beforeAll(async () => {
  h = await startBillingHarness();
  admin = h.adminToken();
  const alice = await h.registerUser({ username: 'alice_payments', first_name: 'Алиса', last_name: 'Смирнова' });
  const bob = await h.registerUser({ username: 'bob_payments', first_name: null, last_name: null });
  for (const [name, userId, amount] of [
    ['alice100', alice, 100],
    ['alice5', alice, 5],
    ['bob70', bob, 70],
  ] as const) {
    const { body } = await h.call<CreatePaymentResponse>('POST', '/api/billing/payments', {
      token: h.userToken(userId),
      body: { amount },
    });
    const row = await h.billing.deps.db
      .selectFrom('payments')
      .select(['id', 'yookassa_payment_id'])
      .where('payment_id', '=', body.payment_id)
      .executeTakeFirstOrThrow();
    made[name] = { userId, paymentId: body.payment_id, id: row.id, remoteId: row.yookassa_payment_id! };
  }
  h.yookassa.succeed(made.alice100!.remoteId);
  await h.yookassa.notify(h.webhookUrl, made.alice100!.remoteId);
});
afterAll(() => h.stop());

const list = (query = '') =>
  h.call<AdminPaymentsResponse & { error?: string }>('GET', `/api/admin/payments${query}`, { token: admin });

describe('GET /api/admin/payments', () => {
  test('by default, then newest first with user names, e-mails and the total', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.payments.map((p) => p.id)).toEqual([made.bob70!.id, made.alice5!.id, made.alice100!.id]);
    expect(res.body.payments[0]).toMatchObject({
      username: 'bob_payments',
      first_name: null,
      email: `user${made.bob70!.userId}@example.com`,
      amount: '70.00',
      credits_amount: 7000,
      status: 'pending',
    });
  });

  test('when filtered by userId, username (part, any case) and status, then only those payments come', async () => {
    const byUser = await list(`?userId=${made.alice100!.userId}`);
    expect(byUser.body.payments.map((p) => p.id).sort()).toEqual([made.alice100!.id, made.alice5!.id].sort());
    expect(byUser.body.total).toBe(2);
    const byName = await list('?username=BOB_PAY');
    expect(byName.body.payments.map((p) => p.id)).toEqual([made.bob70!.id]);
    const byStatus = await list('?status=succeeded');
    expect(byStatus.body.payments.map((p) => p.id)).toEqual([made.alice100!.id]);
    const combined = await list(`?userId=${made.alice100!.userId}&status=pending&username=alice`);
    expect(combined.body.payments.map((p) => p.id)).toEqual([made.alice5!.id]);
    expect((await list('?status=all')).body.total).toBe(3);
    expect((await list('?status=&username=&userId=')).body.total).toBe(3);
    expect((await list('?username=%25')).body.total).toBe(0);
  });

  test('when sorted by amount ascending and paged, then the order and the page follow', async () => {
    const first = await list('?sortField=amount&sortOrder=1&limit=2&page=1');
    expect(first.body.payments.map((p) => p.amount)).toEqual(['5.00', '70.00']);
    const second = await list('?sortField=amount&sortOrder=1&limit=2&page=2');
    expect(second.body.payments.map((p) => p.amount)).toEqual(['100.00']);
    const byUsername = await list('?sortField=username&sortOrder=-1');
    expect(byUsername.body.payments[0]!.username).toBe('bob_payments');
  });

  test('when the status or sort field is not known, then 400 with a message', async () => {
    const status = await list('?status=paid');
    expect(status).toMatchObject({ status: 400 });
    expect(status.body.error).toContain('Статус платежа');
    expect((await list('?sortField=email')).body.error).toBe('Недопустимое поле сортировки');
  });
});

describe('GET /api/admin/payments/:id', () => {
  test("when a payment is opened, then it has the provider's payment id, the user and the metadata", async () => {
    const res = await h.call<Payment>('GET', `/api/admin/payments/${made.alice100!.id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: made.alice100!.id,
      payment_id: made.alice100!.paymentId,
      yookassa_payment_id: made.alice100!.remoteId,
      user_id: made.alice100!.userId,
      username: 'alice_payments',
      first_name: 'Алиса',
      last_name: 'Смирнова',
      amount: '100.00',
      credits_amount: 10_000,
      status: 'succeeded',
      description: 'Пополнение баланса на 100,00\u00a0₽',
      metadata: { payment_id: made.alice100!.paymentId, user_id: String(made.alice100!.userId), kind: 'topup' },
    });
  });

  test('when the payment is unknown, or the caller is no admin, then 404 / 403', async () => {
    const missing = await h.call('GET', '/api/admin/payments/999999', { token: admin });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Платёж не найден' } });
    expect((await h.call('GET', '/api/admin/payments', { token: h.userToken(1) })).status).toBe(403);
  });
});
