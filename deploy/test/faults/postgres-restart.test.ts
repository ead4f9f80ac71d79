import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { FakeYookassa } from '../../../services/billing/test/support/fake-yookassa';
import { signUp } from '../../src/testing';
import { eventually } from '../support/async';
import {
  type Call,
  type CreatedPayment,
  type Customer,
  expectCredits,
  type FaultStack,
  paymentsLogged,
  startFakeProvider,
  startFaultStack,
  type TopUp,
  topUpOf,
  Traffic,
} from './fault-stack';
import { PrivatePostgres } from './private-infra';

/*
 * The whole product on a PostgreSQL server of its own (the shared broker, on an exchange of the
 * test's own), under steady traffic while that server is stopped and started again.
 */
let postgres: PrivatePostgres;
let yookassa: FakeYookassa;
let stack: FaultStack;

beforeAll(async () => {
  const provider = await startFakeProvider();
  yookassa = provider.yookassa;
  postgres = await PrivatePostgres.start();
  stack = await startFaultStack({ postgres }, provider.env);
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await Promise.all([postgres?.remove(), yookassa?.stop()]);
}, 60_000);

/**
 * The requests that need the database at once. `GET /api/tariffs` is answered from billing's kept answer
 * for up to 30 s (docs/architecture.md, kept answers) and fails only after that, with the same 503, if the
 * outage lasts: not waited for, as every half minute of outage holds the events that failed meanwhile in
 * their longer retries.
 */
const NEED_THE_DATABASE = [
  'GET /api/auth/profile',
  'POST /api/billing/payments',
  'POST /api/billing/webhooks/yookassa',
];

interface Paid {
  customer: Customer;
  topUp: TopUp;
  /** Whether billing has accepted a notification of it. */
  notified: boolean;
}

/**
 * A customer looks at their profile and the tariffs and tops up; the provider confirms and notifies,
 * and meanwhile repeats its notification of the customer's last payment, as it does until it is sure.
 */
async function visit(call: Call, customer: Customer, paid: Paid[]): Promise<void> {
  await call('GET', '/api/auth/profile', { token: customer.token });
  await call('GET', '/api/tariffs');
  const last = paid.findLast((entry) => entry.customer === customer);
  if (last) await notify(call, last);
  const created = await call('POST', '/api/billing/payments', { token: customer.token, body: { amount: '10.00' } });
  if (created.status !== 201) return;
  const entry = { customer, topUp: topUpOf(created.body as CreatedPayment), notified: false };
  paid.push(entry);
  yookassa.succeed(entry.topUp.remoteId);
  await notify(call, entry);
}

async function notify(call: Call, entry: Paid): Promise<void> {
  const object = yookassa.payments.get(entry.topUp.remoteId);
  const res = await call('POST', '/api/billing/webhooks/yookassa', {
    body: { type: 'notification', event: 'payment.succeeded', object },
  });
  if (res.status === 200) entry.notified = true;
}

describe('PostgreSQL restart during traffic', () => {
  test('when the database server stops and starts again under load, then requests fail with 503 JSON meanwhile, the services recover by themselves and no event is lost or doubled', async () => {
    const customers = await Promise.all(Array.from({ length: 6 }, () => signUp(stack.url)));
    const paid: Paid[] = [];
    const traffic = new Traffic(stack.url, 6, (call, worker, round) =>
      visit(call, customers[(worker + round) % customers.length]!, paid),
    );
    await eventually(async () => expect(traffic.since(0).ok).toBeGreaterThanOrEqual(30));

    await postgres.stop('fast');
    const down = traffic.answers.length;
    // Down long enough for every kind of request that needs the database to run into it.
    await eventually(async () => {
      const failed = new Set(traffic.since(down).failed.map((answer) => answer.request));
      expect([...failed]).toEqual(expect.arrayContaining(NEED_THE_DATABASE));
    }, 30_000);
    await postgres.start();
    const up = traffic.answers.length;
    await eventually(async () => expect(traffic.since(up).ok).toBeGreaterThanOrEqual(60), 60_000);
    const recovered = traffic.answers.length;
    await eventually(async () => expect(traffic.since(recovered).ok).toBeGreaterThanOrEqual(30), 30_000);
    await traffic.stop();

    // Meanwhile every failure was a clean 503 with a message, never a 500 and never a hang.
    const failures = traffic.since(0).failed;
    for (const failure of failures) {
      expect(failure).toMatchObject({ status: 503, body: { error: expect.any(String), code: expect.any(String) } });
    }
    // Recovered without a restart: everything since works.
    expect(traffic.since(recovered).failed).toEqual([]);

    // The provider repeats a notification until it is accepted; then every paid top-up is credited once.
    for (const entry of paid.filter((e) => !e.notified)) {
      await eventually(async () => {
        const res = await yookassa.notify(`${stack.url}/api/billing/webhooks/yookassa`, entry.topUp.remoteId);
        expect(res.status).toBe(200);
      });
    }
    await expectCredits(
      stack.url,
      new Map(
        customers.map((customer) => [
          customer,
          paid.filter((e) => e.customer === customer).reduce((sum, e) => sum + e.topUp.credits, 0),
        ]),
      ),
    );
    await eventually(async () =>
      expect(await paymentsLogged(postgres)).toEqual({ rows: paid.length, events: paid.length }),
    );
  }, 300_000);
});
