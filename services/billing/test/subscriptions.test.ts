import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { CreditsChangedData } from '@gpt/contracts';
import { addOneMonth } from '../src/domain/tariff-period';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  h = await startBillingHarness({ TARIFF_EXPIRY_INTERVAL_SEC: '1' });
});
afterAll(() => h.stop());

/** Buys a tariff through the provider: create, the payer pays, the notification arrives. */
const buy = (userId: number, tariffId: number) => h.payByCard(userId, { tariff_id: tariffId });

type Snapshot = { tariff: { id: number; name: string; end_date: string | null }; included_credits: number };
const balanceOf = (userId: number) => h.balance(userId) as Promise<Awaited<ReturnType<typeof h.balance>> & Snapshot>;

describe('buying a tariff', () => {
  test('when a user buys Premium, then it is theirs for a month with its included credits, and the money counts as deposited', async () => {
    const userId = await h.registerUser();
    const before = Date.now();
    const paymentId = await buy(userId, 2);

    const balance = await balanceOf(userId);
    expect(balance).toMatchObject({
      credits: 0,
      included_credits: 70_000,
      money_deposited: '350.00',
      tariff: { id: 2, name: 'Premium', monthly_price: '350.00' },
    });
    const end = new Date(balance.tariff.end_date!).getTime();
    expect(end).toBeGreaterThanOrEqual(addOneMonth(new Date(before)).getTime());
    expect(end).toBeLessThanOrEqual(addOneMonth(new Date()).getTime());
    const entries = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select(['reference', 'bucket', 'amount', 'reason', 'tariff_id'])
      .where('user_id', '=', userId)
      .execute();
    expect(entries).toEqual([
      {
        reference: `tariff:${paymentId}`,
        bucket: 'included',
        amount: '70000',
        reason: 'tariff_purchase',
        tariff_id: 2,
      },
    ]);
  });

  test('when the same tariff is bought again before its end, then the new month starts at the current end date', async () => {
    const userId = await h.registerUser();
    await buy(userId, 2);
    const firstEnd = new Date((await balanceOf(userId)).tariff.end_date!);
    await buy(userId, 2);

    const renewed = await balanceOf(userId);
    expect(renewed.tariff.end_date).toBe(addOneMonth(firstEnd).toISOString());
    expect(renewed).toMatchObject({ included_credits: 140_000, money_deposited: '700.00' });
  });

  test('when another tariff is bought, then it starts today', async () => {
    const userId = await h.registerUser();
    await buy(userId, 2);
    const before = Date.now();
    await buy(userId, 3);
    const switched = await balanceOf(userId);
    expect(switched.tariff.name).toBe('Elite');
    const end = new Date(switched.tariff.end_date!).getTime();
    expect(end).toBeGreaterThanOrEqual(addOneMonth(new Date(before)).getTime());
    expect(end).toBeLessThanOrEqual(addOneMonth(new Date()).getTime());
  });
});

describe('the expiry job', () => {
  test('when the paid month has ended, then the user is back on Base with no included credits and credits.changed says so', async () => {
    const userId = await h.registerUser();
    await buy(userId, 3);
    await h.billing.deps.db
      .updateTable('balances')
      .set({ tariff_end_date: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();

    const expired = await h.billing.deps.bus.waitFor(
      'published',
      (e) =>
        e.type === 'credits.changed' &&
        (e.data as CreditsChangedData).user_id === userId &&
        (e.data as CreditsChangedData).reason === 'tariff_expired',
    );
    expect(expired.data).toMatchObject({ included_credits: 0, tariff: { name: 'Base', end_date: null } });
    expect(await balanceOf(userId)).toMatchObject({ included_credits: 0, money_deposited: '1250.00' });
    const entry = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select(['amount', 'reason'])
      .where('user_id', '=', userId)
      .where('reason', '=', 'tariff_expired')
      .execute();
    expect(entry).toEqual([{ amount: '-500000', reason: 'tariff_expired' }]);

    // Bought again after the end: the month runs from today, not from the old end.
    const before = Date.now();
    await buy(userId, 3);
    const end = new Date((await balanceOf(userId)).tariff.end_date!).getTime();
    expect(end).toBeGreaterThanOrEqual(addOneMonth(new Date(before)).getTime());
  });
});

describe('addOneMonth', () => {
  test.each([
    ['2025-01-15T10:00:00.000Z', '2025-02-15T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2025-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    ['2025-12-31T23:59:59.000Z', '2026-01-31T23:59:59.000Z'],
  ])('when the month starts at %s, then it ends at %s', (from, to) => {
    expect(addOneMonth(new Date(from)).toISOString()).toBe(to);
  });
});
