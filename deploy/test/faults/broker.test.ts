import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { FakeYookassa } from '../../../services/billing/test/support/fake-yookassa';
import { serviceQueue } from '@gpt/kit';
import { eventually, inPool } from '../support/async';
import {
  type Customer,
  dashboardDeposits,
  expectCredits,
  type FaultStack,
  payAndNotify,
  paymentsLogged,
  roubles,
  signIn,
  signUpReady,
  startFakeProvider,
  startFaultStack,
  startTopUp,
} from './fault-stack';
import { PrivatePostgres, PrivateRabbit } from './private-infra';

/** The services that talk to the broker; each must ride out its faults alone. */
const SERVICES = ['auth', 'content', 'billing', 'chat-history', 'metrics', 'bot'];

let postgres: PrivatePostgres;
let rabbit: PrivateRabbit;
let yookassa: FakeYookassa;
let stack: FaultStack;
let adminToken: string;

beforeAll(async () => {
  const provider = await startFakeProvider();
  yookassa = provider.yookassa;
  [postgres, rabbit] = await Promise.all([PrivatePostgres.start(), PrivateRabbit.start()]);
  stack = await startFaultStack({ postgres, rabbit }, provider.env);
  adminToken = await signIn(stack.url, stack.admin);
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await Promise.all([rabbit?.remove(), postgres?.remove(), yookassa?.stop()]);
}, 60_000);

interface Payments {
  /** Credits each customer must have in the end. */
  credits: Map<Customer, number>;
  paymentIds: string[];
  kopecks: number;
}

/** Something that goes wrong while the payments run. */
interface Fault {
  /** Strikes once this many payments are through. */
  at: number;
  /** Payments from this index on start only once it has struck, so some surely run into it. */
  holdFrom: number;
  /** Resolves once the fault is in effect. */
  strike(): Promise<void>;
  /** Runs right after, while the payments go on; awaited before pay() returns. */
  recover?(): Promise<void>;
}

/** `count` top-ups, 16 at a time, spread over the customers, each paid and notified through the gateway. */
async function pay(people: Customer[], count: number, faults: Fault[]): Promise<Payments> {
  const result: Payments = { credits: new Map(people.map((c) => [c, 0])), paymentIds: [], kopecks: 0 };
  const struck = faults.map(() => {
    let resolve!: () => void;
    return { promise: new Promise<void>((done) => (resolve = done)), resolve };
  });
  const recoveries: Promise<void>[] = [];
  const strike = (fault: Fault, k: number) => {
    const recovered = fault
      .strike()
      .finally(struck[k]!.resolve)
      .then(() => fault.recover?.());
    // Awaited once the payments are through; a failure must not count as unhandled meanwhile.
    recovered.catch(() => {});
    recoveries.push(recovered);
  };

  await inPool(count, 16, async (i) => {
    for (const [k, fault] of faults.entries()) if (i >= fault.holdFrom) await struck[k]!.promise;
    const customer = people[i % people.length]!;
    const kopecks = 100 + ((i * 37) % 9900);
    const topUp = await startTopUp(stack.url, customer, roubles(kopecks));
    expect(await payAndNotify(stack.url, yookassa, topUp)).toBe(200);
    result.credits.set(customer, result.credits.get(customer)! + topUp.credits);
    result.paymentIds.push(topUp.paymentId);
    result.kopecks += kopecks;
    faults.forEach((fault, k) => fault.at === result.paymentIds.length && strike(fault, k));
  });
  expect(recoveries).toHaveLength(faults.length);
  await Promise.all(recoveries);
  return result;
}

/** The services that logged a reconnection to the broker, counting from the `since`-th such line. */
const reconnectedServices = (since = 0) =>
  new Set(
    stack.logs
      .matching(/reconnected to the broker/)
      .slice(since)
      .map((entry) => entry.service),
  );

describe('broker restart mid-flight', () => {
  const PAYMENTS = 1000;

  test(`when RabbitMQ stops and starts again halfway through ${PAYMENTS} payments, then every payment.succeeded reaches auth and metrics exactly once`, async () => {
    const people = await Promise.all(Array.from({ length: 50 }, () => signUpReady(stack)));

    // The third quarter is in flight while the node stops; the last one starts once it is down.
    const payments = await pay(people, PAYMENTS, [
      { at: PAYMENTS / 2, holdFrom: (PAYMENTS * 3) / 4, strike: () => rabbit.stop(), recover: () => rabbit.start() },
    ]);

    await expectCredits(stack.url, payments.credits);
    await eventually(async () => {
      const deposits = await dashboardDeposits(stack.url, adminToken);
      expect(deposits.charted).toBe(payments.kopecks);
      expect(deposits.today.shown).toBe(deposits.today.charted);
      expect(deposits.month.shown).toBe(deposits.month.charted);
    }, 60_000);
    // A second delivery that got past the inbox would have added a row.
    expect(await paymentsLogged(postgres, payments.paymentIds)).toEqual({
      rows: PAYMENTS,
      events: PAYMENTS,
    });
    // No process was restarted: the services in this one lost the broker and reconnected by themselves.
    expect(reconnectedServices()).toEqual(new Set(SERVICES));
  }, 300_000);
});

describe('connection killed while the broker stays up', () => {
  const PAYMENTS = 120;

  test('when RabbitMQ closes every connection twice during payments, then the services reconnect and resubscribe, and nothing is lost', async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => signUpReady(stack)));
    const reconnectsBefore = stack.logs.matching(/reconnected to the broker/).length;
    const kill = () => rabbit.closeAllConnections();

    const payments = await pay(people, PAYMENTS, [
      { at: PAYMENTS / 4, holdFrom: PAYMENTS / 2, strike: kill },
      { at: (PAYMENTS * 5) / 8, holdFrom: (PAYMENTS * 7) / 8, strike: kill },
    ]);

    await expectCredits(stack.url, payments.credits);
    await eventually(async () =>
      expect(await paymentsLogged(postgres, payments.paymentIds)).toEqual({
        rows: PAYMENTS,
        events: PAYMENTS,
      }),
    );
    expect(reconnectedServices(reconnectsBefore)).toEqual(new Set(SERVICES));
    // Every service that consumes is consuming its queue again, on a channel of the new connection.
    await eventually(async () =>
      expect(new Set(await rabbit.consumedQueues())).toEqual(
        new Set(SERVICES.map((service) => serviceQueue(service, 'app.events'))),
      ),
    );
    // Acks are never sent for deliveries of a dead channel: neither side saw an unknown delivery tag.
    expect(stack.logs.matching(/unknown delivery tag/i)).toEqual([]);
    expect(await rabbit.log()).not.toMatch(/unknown delivery tag/i);
  }, 180_000);
});
