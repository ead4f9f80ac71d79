import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { PaymentCanceledData, PaymentFailedData, PaymentSucceededData } from '@gpt/contracts';
import { reconcilePendingPayments } from '../src/domain/settle-payment';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  // Payments count as "left pending" after 1 s here (an hour by default), and the job runs every second.
  h = await startBillingHarness({ PAYMENT_RECONCILE_AFTER_SEC: '1', PAYMENT_RECONCILE_INTERVAL_SEC: '1' });
});
afterAll(() => h.stop());

const topUp = (amount: number) => h.topUp({ amount });

/** One more round of the job, run here and awaited. */
const reconcileRound = () => reconcilePendingPayments(h.billing.deps, h.billing.deps.providers);

const published = <T>(type: string, paymentId: string) =>
  h.billing.deps.bus
    .waitFor('published', (e) => e.type === type && (e.data as { payment_id: string }).payment_id === paymentId)
    .then((e) => e.data as T);

describe('the reconciliation job', () => {
  test('when the notification never comes, then the job re-fetches the pending payment and credits it once', async () => {
    const { userId, paymentId, remoteId } = await topUp(120);
    h.yookassa.succeed(remoteId);

    const succeeded = await published<PaymentSucceededData>('payment.succeeded', paymentId);
    expect(succeeded).toMatchObject({ user_id: userId, amount: '120.00', credits_amount: 12_000 });
    expect((await h.balance(userId)).credits).toBe(12_000);

    // The late notification and further job rounds are duplicates.
    expect((await h.yookassa.notify(h.webhookUrl, remoteId)).status).toBe(200);
    const gets = h.yookassa.requestsTo('GET', `/payments/${remoteId}`).length;
    await reconcileRound(); // it leaves settled payments alone
    expect(h.yookassa.requestsTo('GET', `/payments/${remoteId}`).length).toBe(gets);
    expect((await h.balance(userId)).credits).toBe(12_000);
    const entries = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select('reference')
      .where('user_id', '=', userId)
      .execute();
    expect(entries).toHaveLength(1);
  });

  test('when the notification and the job race, then the payment is still credited exactly once', async () => {
    const { userId, paymentId, remoteId } = await topUp(33);
    h.yookassa.succeed(remoteId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => h.yookassa.notify(h.webhookUrl, remoteId)));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    await Promise.all([published('payment.succeeded', paymentId), reconcileRound()]);
    expect((await h.balance(userId)).credits).toBe(3300);
  });

  test('when the provider canceled the payment meanwhile, then the job cancels ours', async () => {
    const { paymentId, remoteId } = await topUp(40);
    h.yookassa.cancel(remoteId, 'expired_on_confirmation', 'yoo_money');
    const canceled = await published<PaymentCanceledData>('payment.canceled', paymentId);
    expect(canceled).toMatchObject({ reason: 'expired_on_confirmation', party: 'yoo_money' });
  });

  test('when a pending payment never reached the provider (the process stopped in between), then it becomes failed', async () => {
    const userId = await h.registerUser();
    const paymentId = `crash-${userId}`;
    await h.billing.deps.db
      .insertInto('payments')
      .values({
        payment_id: paymentId,
        user_id: userId,
        kind: 'topup',
        amount: '15.00',
        credits_amount: 1500,
        status: 'pending',
        description: 'Пополнение баланса на 15,00\u00a0₽',
        email: 'crash@example.com',
        source: 'web',
        metadata: JSON.stringify({ payment_id: paymentId, user_id: String(userId) }),
      })
      .execute();
    const failed = await published<PaymentFailedData>('payment.failed', paymentId);
    expect(failed.reason).toBe('Платёж не был создан у платёжного сервиса');
  });
});
