import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminReconciliationResponse } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

/** Billing's payments of the last days against YooKassa's own lists (the fake speaks its list API). */
let h: BillingHarness;
beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

const run = () =>
  h.call<AdminReconciliationResponse & { code?: string }>('POST', '/api/admin/reconciliation', {
    token: h.adminToken(),
  });

describe('POST /api/admin/reconciliation', () => {
  test('when YooKassa has a paid payment never credited here and one nobody here knows, then both are reported and nothing changes', async () => {
    const matched = await h.payByCard(await h.registerUser(), { amount: '40.00' });
    // Paid at YooKassa, but its notification never came: still pending here.
    const missing = await h.topUp({ amount: '75.00' });
    h.yookassa.succeed(missing.remoteId);
    // A payment YooKassa took that no payment of ours names.
    h.yookassa.payments.set('2f0c-unknown', {
      id: '2f0c-unknown',
      status: 'succeeded',
      paid: true,
      amount: { value: '500.00', currency: 'RUB' },
      metadata: {},
      created_at: new Date().toISOString(),
    });
    const balanceBefore = await h.balance(missing.userId);

    const res = await run();

    expect(res.status).toBe(200);
    const report = res.body.report!;
    expect(report.sources).toContainEqual({ source: 'yookassa', checked: expect.any(Number), error: null });
    expect(report.differences.filter((d) => d.source === 'yookassa')).toEqual(
      expect.arrayContaining([
        {
          source: 'yookassa',
          kind: 'missing_credit',
          provider_id: missing.remoteId,
          payment_id: missing.id,
          user_id: missing.userId,
          ours: null,
          theirs: '75.00',
        },
        {
          source: 'yookassa',
          kind: 'unknown_payment',
          provider_id: '2f0c-unknown',
          payment_id: null,
          user_id: null,
          ours: null,
          theirs: '500.00',
        },
      ]),
    );
    expect(report.differences.filter((d) => d.source === 'yookassa')).toHaveLength(2);
    expect(report.differences.some((d) => d.payment_id === matched)).toBe(false);
    // Nothing was corrected: the payment is still pending and the balance as it was.
    const row = await h.billing.deps.db
      .selectFrom('payments')
      .select('status')
      .where('id', '=', missing.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(await h.balance(missing.userId)).toEqual(balanceBefore);

    const latest = await h.call<AdminReconciliationResponse>('GET', '/api/admin/reconciliation', {
      token: h.adminToken(),
    });
    expect(latest.body.report).toEqual(report);
  });

  test('when a refund is done here but YooKassa has none, then it is reported', async () => {
    const id = await h.payByCard(await h.registerUser(), { amount: '30.00' });
    const refunded = await h.call('POST', `/api/admin/payments/${id}/refund`, { token: h.adminToken() });
    expect(refunded.status).toBe(200);
    const remote = (await h.billing.deps.db
      .selectFrom('payments')
      .select('yookassa_payment_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow())!.yookassa_payment_id!;
    // YooKassa lost its refund (as a provider that answered «succeeded» and kept nothing would).
    for (const [refundId, refund] of h.yookassa.refunds)
      if (refund.payment_id === remote) h.yookassa.refunds.delete(refundId);

    const res = await run();

    expect(res.body.report!.differences).toContainEqual(
      expect.objectContaining({
        source: 'yookassa',
        kind: 'refund_missing_there',
        provider_id: remote,
        payment_id: id,
      }),
    );
  });

  test('a plain user gets 403', async () => {
    const userId = await h.registerUser();
    const res = await h.call('POST', '/api/admin/reconciliation', { token: h.userToken(userId) });
    expect(res.status).toBe(403);
  });
});
