import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { callApi } from '../../src/testing';
import { eventually } from '../support/async';
import { type Customer, type FaultStack, signIn, signUpReady, startFaultStack, Traffic } from './fault-stack';
import { PrivatePostgres } from './private-infra';

/*
 * An admin deposits credits with an Idempotency-Key per deposit on the whole product, on a PostgreSQL server
 * of its own, while that server stops and starts again; every deposit not answered 200 is sent again with
 * its own key until it is. Before keys, a deposit answered 503 could have been applied, and pressing again
 * credited twice.
 */
let postgres: PrivatePostgres;
let stack: FaultStack;

beforeAll(async () => {
  postgres = await PrivatePostgres.start();
  stack = await startFaultStack({ postgres });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await postgres?.remove();
}, 60_000);

interface Deposit {
  customer: Customer;
  key: string;
  credits: number;
  answered: boolean;
}

describe('PostgreSQL restart during admin deposits', () => {
  test('when the database server restarts under an admin deposits with keys, then each deposit retried with its key is stored exactly once', async () => {
    const adminToken = await signIn(stack.url, stack.admin);
    const customers = await Promise.all(Array.from({ length: 4 }, () => signUpReady(stack)));
    const deposits: Deposit[] = [];
    // One deposit: its own key, and as many credits as its number, so each one shows in the sums.
    const request = (d: Deposit) =>
      [
        'PUT',
        `/api/admin/users/${d.customer.id}`,
        {
          token: adminToken,
          body: { depositAmount: d.credits, reason: 'Проверка отказа' },
          headers: { 'Idempotency-Key': d.key },
        },
      ] as const;
    const traffic = new Traffic(stack.url, customers.length, async (call, worker) => {
      const d = { customer: customers[worker]!, key: randomUUID(), credits: deposits.length + 1, answered: false };
      deposits.push(d);
      d.answered = (await call(...request(d))).status === 200;
    });
    await eventually(async () => expect(traffic.since(0).ok).toBeGreaterThanOrEqual(20));

    await postgres.stop('fast');
    const down = traffic.answers.length;
    await eventually(async () => expect(traffic.since(down).failed.length).toBeGreaterThanOrEqual(8), 30_000);
    await postgres.start();
    const up = traffic.answers.length;
    await eventually(async () => expect(traffic.since(up).ok).toBeGreaterThanOrEqual(20), 60_000);
    await traffic.stop();

    // Meanwhile every failure was a clean 503 with a message.
    for (const failure of traffic.since(0).failed) {
      expect(failure).toMatchObject({ status: 503, body: { error: expect.any(String), code: expect.any(String) } });
    }
    const unanswered = deposits.filter((d) => !d.answered);
    expect(unanswered.length).toBeGreaterThanOrEqual(8);
    // The admin presses again: the same key, until the answer comes.
    for (const d of unanswered) {
      await eventually(async () => expect((await callApi(stack.url, ...request(d))).status).toBe(200));
    }

    const billing = stack.service('billing').deps.db as Kysely<unknown>;
    const { rows } = await sql<{ user_id: number; entries: string; credits: string }>`
      select user_id, count(*) as entries, sum(amount) as credits from ledger_entries
      where reason = 'admin_deposit' group by user_id`.execute(billing);
    const stored = new Map(
      rows.map((row) => [row.user_id, { entries: Number(row.entries), credits: Number(row.credits) }]),
    );
    for (const customer of customers) {
      const made = deposits.filter((d) => d.customer === customer);
      expect(stored.get(customer.id)).toEqual({
        entries: made.length,
        credits: made.reduce((sum, d) => sum + d.credits, 0),
      });
    }
  }, 300_000);
});
