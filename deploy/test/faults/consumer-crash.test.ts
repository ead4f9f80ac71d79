import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import pg from 'pg';
import { TcpProxy } from '../../../services/kit/test/bus-helpers';
import { MetricsHarness, paymentSucceeded } from '../../../services/metrics/test/support/harness';
import { eventually } from '../support/async';

/*
 * The metrics service consumes through a TCP hop to RabbitMQ that the test controls, so it can make
 * the consumer's connection die at an exact point of handling a delivery. Nothing shared is stopped:
 * the hop is ours, the broker and the database servers are the shared ones.
 */
const proxy = new TcpProxy();
let metrics: MetricsHarness;

beforeAll(async () => {
  await proxy.open();
  metrics = await MetricsHarness.start({ AMQP_URL: proxy.url });
});

afterAll(async () => {
  await metrics?.stop();
  await proxy.close();
});

/** How many times the event's effect and its inbox claim are in the metrics database. */
async function effectsOf(eventId: string) {
  const count = async (table: 'event_log' | 'inbox') =>
    Number(
      (
        await metrics.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('event_id', '=', eventId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { logged: await count('event_log'), claimed: await count('inbox') };
}

/** Today's deposits on the dashboard, in kopecks. */
async function depositedToday(): Promise<number> {
  return Math.round(Number((await metrics.stats()).depositedToday) * 100);
}

/** A payment that succeeded at the service's "now". */
const payment = (amount: string) => paymentSucceeded({ amount, succeeded_at: metrics.clock.now.toISOString() });

/** The consumer's connection dies as its process would; resolves once the bus has connected again. */
async function crashConsumerConnection(): Promise<void> {
  const reconnected = proxy.nextConnection();
  proxy.killConnections();
  await reconnected;
  await metrics.bus.ready();
}

describe('consumer crash before the ack', () => {
  test('when the consumer dies after its transaction committed and before the broker got the ack, then the redelivery is skipped and the payment counts once', async () => {
    const before = await depositedToday();
    proxy.holdUpstream();

    // Resolves when the handler's transaction has committed and its ack was handed to the (held) connection.
    const event = await metrics.publish('payment.succeeded', payment('123.45'));
    expect(await effectsOf(event.id)).toEqual({ logged: 1, claimed: 1 });
    await crashConsumerConnection();

    // The broker never got that ack, so it delivers the event again; the inbox knows it and only acks.
    await metrics.bus.waitFor('acked', (e) => e.id === event.id, 20_000);
    expect(await effectsOf(event.id)).toEqual({ logged: 1, claimed: 1 });
    expect(await depositedToday()).toBe(before + 12_345);
  });

  test('when the consumer dies before its transaction committed, then its transaction is rolled back and the redelivery counts the payment once', async () => {
    const before = await depositedToday();
    const database = new URL(metrics.service.deps.config.SERVICE_DATABASE_URL!);
    // One session holds the lock; the other watches (a transaction sees pg_stat_activity frozen).
    const [blocker, watcher] = [database, database].map((url) => new pg.Client({ connectionString: url.toString() }));
    await Promise.all([blocker!.connect(), watcher!.connect()]);
    const dbName = database.pathname.slice(1);
    try {
      // The handler's transaction gets as far as writing the event log, then waits on this lock.
      await blocker!.query('begin');
      await blocker!.query('lock table event_log in exclusive mode');
      // Resolves at the first ack: the redelivery's, since the first delivery dies unacknowledged.
      const consumed = metrics.publish('payment.succeeded', payment('67.89'), 60_000);
      const handler = await eventually(async () => {
        const { rows } = await watcher!.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where datname = $1 and wait_event_type = 'Lock' and query ilike 'insert into "event_log"%'`,
          [dbName],
        );
        expect(rows).toHaveLength(1);
        return rows[0]!.pid;
      }, 20_000);

      // The process dies: its broker connection and its database session both go, mid-transaction.
      await crashConsumerConnection();
      const terminated = await blocker!.query('select pg_terminate_backend($1) as done', [handler]);
      expect(terminated.rows[0]).toEqual({ done: true });
      await blocker!.query('rollback');

      const event = await consumed;
      expect(await effectsOf(event.id)).toEqual({ logged: 1, claimed: 1 });
      expect(await depositedToday()).toBe(before + 6_789);
      // The service went on without a restart: its database pool replaced the killed session.
      await expect(sql`select 1`.execute(metrics.db)).resolves.toBeDefined();
    } finally {
      await Promise.all([blocker!.end(), watcher!.end()]);
    }
  });
});
