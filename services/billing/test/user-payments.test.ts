import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { UserPaymentsResponse } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

const topUp = async (userId: number, amount: string) => (await h.topUp({ amount }, userId)).paymentId;

function listOf(userId: number, query = '') {
  return h.call<UserPaymentsResponse & { error?: string }>('GET', `/api/billing/payments${query}`, {
    token: h.userToken(userId),
  });
}

describe('GET /api/billing/payments (the personal account’s payment history)', () => {
  test('a user reads their own payments, newest first, with what, amount, status and receipt e-mail; never another’s', async () => {
    const [payer, other] = [await h.registerUser(), await h.registerUser()];
    const first = await topUp(payer, '100');
    const second = await topUp(payer, '350.50');
    const third = await topUp(payer, '1000');
    await topUp(other, '777');
    const remote = [...h.yookassa.payments.values()].find((p) => p.metadata?.payment_id === second)!;
    h.yookassa.succeed(remote.id);
    expect((await h.yookassa.notify(h.webhookUrl, remote.id)).status).toBe(200);

    const res = await listOf(payer);
    expect(res.status).toBe(200);
    expect(UserPaymentsResponse.parse(res.body)).toEqual(res.body);
    expect(res.body.total).toBe(3);
    expect(res.body.payments.map((p) => p.payment_id)).toEqual([third, second, first]);
    expect(res.body.payments[1]).toMatchObject({
      status: 'succeeded',
      kind: 'topup',
      amount: '350.50',
      credits_amount: 35_050,
      description: 'Пополнение баланса на 350,50\u00a0₽',
      email: `user${payer}@example.com`,
    });
    expect(res.body.payments[0]).toMatchObject({ status: 'pending', amount: '1000.00' });

    const others = await listOf(other);
    expect(others.body.total).toBe(1);
    expect(others.body.payments).toEqual([expect.objectContaining({ amount: '777.00' })]);
  });

  test('pages: limit and page pick a slice of the newest-first list; the total stays', async () => {
    const payer = await h.registerUser();
    const ids = [];
    for (const amount of ['10', '20', '30', '40', '50']) ids.push(await topUp(payer, amount));
    const pageTwo = await listOf(payer, '?page=2&limit=2');
    expect(pageTwo.body.total).toBe(5);
    expect(pageTwo.body.payments.map((p) => p.payment_id)).toEqual([ids[2], ids[1]]);
    const last = await listOf(payer, '?page=3&limit=2');
    expect(last.body.payments.map((p) => p.payment_id)).toEqual([ids[0]]);
    expect((await listOf(payer, '?page=4&limit=2')).body.payments).toEqual([]);
  });

  test('a user with no payments gets an empty list; bad paging is a 400 in Russian; no token is a 401', async () => {
    const newcomer = await h.registerUser();
    expect((await listOf(newcomer)).body).toEqual({ payments: [], total: 0 });
    const bad = await listOf(newcomer, '?limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Размер страницы должен быть целым числом от 1 до 50');
    expect((await listOf(newcomer, '?page=abc')).status).toBe(400);
    expect((await h.call('GET', '/api/billing/payments')).status).toBe(401);
  });
});
