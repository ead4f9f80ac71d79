import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Envelope } from '@gpt/kit';
import { publishRaw } from '@gpt/kit/testing';
import type { FakeYookassa } from '../../../services/billing/test/support/fake-yookassa';
import { busOf, callApi, MANY_USERS_ENV, setWelcomeCredits, startTestStack, type TestStack } from '../../src/testing';
import { eventually } from '../support/async';
import {
  type Customer,
  dashboardDeposits,
  expectCredits,
  roubles,
  signIn,
  signUpReady,
  startFakeProvider,
  startTopUp,
  type TopUp,
} from './fault-stack';

/* Nothing is stopped here, so the product runs on the shared servers (fresh databases, its own exchange). */
let stack: TestStack;
let yookassa: FakeYookassa;
let adminToken: string;

beforeAll(async () => {
  const provider = await startFakeProvider();
  yookassa = provider.yookassa;
  stack = await startTestStack({ ...MANY_USERS_ENV, ...provider.env });
  // Balances are checked exactly: a new customer starts from 0, with no welcome grant.
  await setWelcomeCredits(stack, 0);
  adminToken = await signIn(stack.url, stack.admin);
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await yookassa?.stop();
});

const webhookUrl = () => `${stack.url}/api/billing/webhooks/yookassa`;

interface Payer {
  customer: Customer;
  topUps: TopUp[];
  kopecks: number;
}

/** A customer with top-ups of these amounts (in kopecks) that the payer has paid, none notified yet. */
async function payerOf(amounts: number[]): Promise<Payer> {
  const customer = await signUpReady(stack);
  const topUps = [];
  for (const kopecks of amounts) {
    const topUp = await startTopUp(stack.url, customer, roubles(kopecks));
    yookassa.succeed(topUp.remoteId);
    topUps.push(topUp);
  }
  return { customer, topUps, kopecks: amounts.reduce((sum, kopecks) => sum + kopecks, 0) };
}

/** A customer's balance as billing itself reports it. */
async function billingBalance(customer: Customer) {
  const res = await callApi<{ credits: number; money_deposited: string }>(stack.url, 'GET', '/api/billing/balance', {
    token: customer.token,
  });
  return res.body;
}

describe('duplicate and concurrent webhooks, duplicate events', () => {
  const customers: Payer[] = [];
  const paid = (index: number) => customers[index]!.topUps.reduce((sum, topUp) => sum + topUp.credits, 0);

  test('when every payment of several customers is notified ten times at once, out of order, then each is credited once', async () => {
    customers.push(...(await Promise.all([payerOf([1000, 2550, 9999]), payerOf([101, 70_000]), payerOf([12_345])])));
    const events = ['payment.succeeded', 'payment.waiting_for_capture', 'payment.succeeded', 'payment.canceled'];
    const notifications = customers.flatMap(({ topUps }) =>
      topUps.flatMap((topUp) =>
        Array.from({ length: 10 }, (_, i) => yookassa.notify(webhookUrl(), topUp.remoteId, events[i % events.length])),
      ),
    );

    const answers = await Promise.all(notifications);
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));

    for (const [index, { customer, kopecks }] of customers.entries()) {
      expect(await billingBalance(customer)).toMatchObject({ credits: paid(index), money_deposited: roubles(kopecks) });
    }
    await expectCredits(stack.url, new Map(customers.map(({ customer }, index) => [customer, paid(index)])));
    const deposited = customers.reduce((sum, payer) => sum + payer.kopecks, 0);
    await eventually(async () => expect((await dashboardDeposits(stack.url, adminToken)).charted).toBe(deposited));
  });

  test('when the broker delivers the payments events again, concurrently, then no balance or figure moves', async () => {
    const payments = customers.flatMap(({ topUps }) => topUps);
    const userIds = new Set(customers.map(({ customer }) => customer.id));
    const before = await Promise.all(customers.map(({ customer }) => billingBalance(customer)));
    const depositsBefore = await dashboardDeposits(stack.url, adminToken);
    // What billing published for the payments: a payment.succeeded and a balance snapshot (credits.changed)
    // each. The older snapshots are among them: a late copy of one must not take a balance back.
    const billing = busOf(stack, 'billing');
    const ofOurs = (e: Envelope) => userIds.has((e.data as { user_id: number }).user_id);
    const published: Envelope[] = [];
    for (let i = 0; i < payments.length; i += 1) {
      published.push(await billing.waitFor('published', (e) => e.type === 'payment.succeeded' && ofOurs(e)));
      published.push(
        await billing.waitFor(
          'published',
          (e) => e.type === 'credits.changed' && (e.data as { reason: string }).reason === 'payment' && ofOurs(e),
        ),
      );
    }
    const consumers = { 'payment.succeeded': busOf(stack, 'metrics'), 'credits.changed': busOf(stack, 'auth') };
    const consumerOf = (event: Envelope) => consumers[event.type as keyof typeof consumers];

    // Three more copies of each, all at once, as a relay that lost its confirms would send them.
    const exchange = stack.services[0]!.deps.config.AMQP_EXCHANGE;
    await Promise.all([1, 2, 3].flatMap(() => published.map((event) => publishRaw(exchange, event.type, event))));
    // Four deliveries of each (the original and three copies), each acknowledged.
    await Promise.all(
      published.flatMap((event) =>
        [1, 2, 3, 4].map(() => consumerOf(event).waitFor('acked', (e) => e.id === event.id, 30_000)),
      ),
    );

    expect(await Promise.all(customers.map(({ customer }) => billingBalance(customer)))).toEqual(before);
    await expectCredits(stack.url, new Map(customers.map(({ customer }, index) => [customer, paid(index)])));
    expect(await dashboardDeposits(stack.url, adminToken)).toEqual(depositsBefore);
  });
});
