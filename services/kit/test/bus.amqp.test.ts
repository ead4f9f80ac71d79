import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import { type Bus, type Consumer, busMigrations, createBus, deadLetterQueueOf, retryQueueOf } from '../src/bus';
import { type Database, openDatabase } from '../src/db';
import { createTestDatabase, dropTestDatabase, testInfra, uniqueName } from '../src/testing';
import {
  BrokerAdmin,
  TcpProxy,
  type TestConsumer,
  type TestDB,
  type TestSchemas,
  effectsMigration,
  effectsOf,
  gate,
  rawEnvelope,
  recordingConsumer,
  silentLogger,
  testSchemas,
} from './bus-helpers';

const exchange = uniqueName('test_events');
const retryDelaysMs = [100, 200];
const queues: string[] = [];
const buses: Bus<TestDB, TestSchemas>[] = [];
let databaseUrl: string;
let database: Database<TestDB>;
let admin: BrokerAdmin;
const proxy = new TcpProxy();

function startBus(
  options: {
    consumers?: TestConsumer[];
    amqpUrl?: string;
    maxAttempts?: number;
    queue?: string;
    classicQueue?: string;
  } = {},
) {
  const queue = options.queue ?? uniqueName('bus_test');
  queues.push(queue, deadLetterQueueOf(queue), ...retryDelaysMs.map((delay) => retryQueueOf(queue, delay)));
  const bus = createBus({
    service: 'bus-test',
    db: database.db,
    schemas: testSchemas,
    logger: silentLogger,
    amqpUrl: options.amqpUrl ?? testInfra.amqpUrl,
    exchange,
    queue,
    consumers: options.consumers,
    classicQueue: options.classicQueue,
    maxAttempts: options.maxAttempts ?? 3,
    retryDelaysMs,
    relayIntervalMs: 200,
    reconnectDelaysMs: [50, 100, 200],
  });
  buses.push(bus);
  return { bus, queue, started: bus.start().then(() => bus.ready()) };
}

const publishInTransaction = (bus: Bus<TestDB, TestSchemas>, type: keyof TestSchemas, n: number) =>
  database.db.transaction().execute((trx) => bus.publish(trx, type, { n }));

async function isSent(eventId: string): Promise<boolean> {
  const row = await sql<{
    sent: boolean;
  }>`select sent_at is not null as sent from outbox where id = ${eventId}`.execute(database.db);
  return row.rows[0]?.sent ?? false;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase('kit_bus_amqp');
  database = await openDatabase<TestDB>({
    service: 'bus-test',
    url: databaseUrl,
    migrations: { ...busMigrations, ...effectsMigration },
    logger: silentLogger,
  });
  admin = await BrokerAdmin.connect();
  await proxy.open();
});

// Each test's bus is gone before the next starts, so no other relay sends a test's outbox rows.
afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
  if (!proxy.isOpen) await proxy.open();
});

afterAll(async () => {
  await proxy.close();
  await admin.cleanUp(exchange, queues);
  await database.close();
  await dropTestDatabase(databaseUrl);
});

describe('RabbitMQ bus: outbox', () => {
  test('when the broker is unreachable, then the event waits in the outbox and is delivered once after it comes back', async () => {
    await proxy.close();
    const consumer = recordingConsumer('thing.happened');
    const { bus, queue } = startBus({ amqpUrl: proxy.url, consumers: [consumer] });
    await bus.start();
    await expect(bus.ping()).rejects.toThrow(/not connected/);

    const event = await publishInTransaction(bus, 'thing.happened', 1);
    await bus.flush();
    expect(await isSent(event.id)).toBe(false);

    await proxy.open();
    await bus.waitFor('published', (e) => e.id === event.id);
    await bus.waitFor('acked', (e) => e.id === event.id);
    expect(await effectsOf(database.db, event.id)).toHaveLength(1);
    expect(await isSent(event.id)).toBe(true);
    expect(await admin.messageCount(queue)).toBe(0);
    expect(await admin.messageCount(deadLetterQueueOf(queue))).toBe(0);
  });

  test('when the connection drops after start, then events written meanwhile go out on reconnect, once each', async () => {
    const { bus, queue, started } = startBus({ amqpUrl: proxy.url, consumers: [recordingConsumer('thing.happened')] });
    await started;
    await proxy.close();
    const events = [
      await publishInTransaction(bus, 'thing.happened', 1),
      await publishInTransaction(bus, 'thing.happened', 2),
    ];
    await bus.flush();
    expect(await Promise.all(events.map((e) => isSent(e.id)))).toEqual([false, false]);

    await proxy.open();
    for (const event of events) await bus.waitFor('acked', (e) => e.id === event.id);
    for (const event of events) expect(await effectsOf(database.db, event.id)).toHaveLength(1);
    expect(await admin.messageCount(queue)).toBe(0);
  });

  test('when two replicas relay the same outbox, then each row is published once', async () => {
    const listener = uniqueName('bus_test_listener');
    queues.push(listener);
    await admin.channel.assertQueue(listener, { durable: false });
    await admin.channel.bindQueue(listener, exchange, 'thing.happened');
    const replicas = [startBus(), startBus()];
    await Promise.all(replicas.map((r) => r.started));
    const ids = new Set<string>();
    await database.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 40; n += 1) ids.add((await replicas[0]!.bus.publish(trx, 'thing.happened', { n })).id);
    });

    await Promise.all(replicas.map((r) => r.bus.flush()));

    const received = (await admin.drain(listener)).map((m) => (JSON.parse(m.content.toString()) as { id: string }).id);
    expect(received.filter((id) => ids.has(id)).sort()).toEqual([...ids].sort());
  });
});

describe('RabbitMQ bus: consuming', () => {
  test('the queue and its dead letters are quorum queues: the broker refuses to take them for classic ones', async () => {
    const { queue, started } = startBus({ consumers: [recordingConsumer('thing.happened')] });
    await started;
    for (const name of [queue, deadLetterQueueOf(queue)]) {
      expect(await admin.declareClassic(name)).toMatch(/inequivalent arg 'x-queue-type'/);
    }
  });

  test('when two replicas consume one queue, then each gets a share of the events and each event is handled once', async () => {
    const queue = uniqueName('bus_test_shared');
    const replica = (label: string): TestConsumer => ({
      event: 'thing.happened',
      name: 'shared',
      async handle(trx, envelope) {
        await trx
          .insertInto('effects')
          .values({ event_id: envelope.id, consumer: label, n: envelope.data.n })
          .execute();
      },
    });
    const replicas = [startBus({ queue, consumers: [replica('a')] }), startBus({ queue, consumers: [replica('b')] })];
    await Promise.all(replicas.map((r) => r.started));
    const envelopes = Array.from({ length: 30 }, (_, n) => rawEnvelope('thing.happened', { n }));

    for (const envelope of envelopes) await admin.publish(exchange, 'thing.happened', envelope);
    // Each replica acks what it was given; together they ack every event, and nothing twice.
    const acked = await Promise.all(
      envelopes.map((envelope) =>
        Promise.race(replicas.map((r, i) => r.bus.waitFor('acked', (e) => e.id === envelope.id).then(() => i))),
      ),
    );

    expect(new Set(acked)).toEqual(new Set([0, 1]));
    const effects = await database.db
      .selectFrom('effects')
      .select(['event_id', 'consumer'])
      .where(
        'event_id',
        'in',
        envelopes.map((e) => e.id),
      )
      .execute();
    expect(effects).toHaveLength(envelopes.length);
    expect(new Set(effects.map((effect) => effect.consumer))).toEqual(new Set(['a', 'b']));
  });

  test('when an earlier version left events in its classic queue, then each is handled once and new events reach only the quorum queue', async () => {
    const classic = uniqueName('bus_test_classic');
    queues.push(classic);
    await admin.channel.assertExchange(exchange, 'topic', { durable: true });
    await admin.channel.assertQueue(classic, { durable: true });
    await admin.channel.bindQueue(classic, exchange, 'thing.happened');
    const pending = Array.from({ length: 5 }, (_, n) => rawEnvelope('thing.happened', { n }));
    for (const envelope of pending) await admin.publish(exchange, 'thing.happened', envelope);
    // One of them twice, as a redelivery of the old version would leave it.
    await admin.publish(exchange, 'thing.happened', pending[0]!);
    expect(await admin.messageCount(classic)).toBe(6);

    const { bus, queue, started } = startBus({
      classicQueue: classic,
      consumers: [recordingConsumer('thing.happened')],
    });
    await started;
    for (const envelope of pending) await bus.waitFor('acked', (e) => e.id === envelope.id);
    await bus.waitFor('acked', (e) => e.id === pending[0]!.id);
    for (const envelope of pending) expect(await effectsOf(database.db, envelope.id)).toHaveLength(1);

    await bus.close();
    const later = rawEnvelope('thing.happened', { n: 99 });
    await admin.publish(exchange, 'thing.happened', later);
    expect(await admin.messageCount(classic)).toBe(0);
    expect((await admin.drain(queue)).map((m) => (JSON.parse(m.content.toString()) as { id: string }).id)).toEqual([
      later.id,
    ]);
  });

  test('when the same event is delivered twice, then its effect happens once and both are acked', async () => {
    const { bus, started } = startBus({ consumers: [recordingConsumer('thing.happened')] });
    await started;
    const envelope = rawEnvelope('thing.happened', { n: 7 });

    await admin.publish(exchange, 'thing.happened', envelope);
    await admin.publish(exchange, 'thing.happened', envelope);

    await bus.waitFor('acked', (e) => e.id === envelope.id);
    await bus.waitFor('acked', (e) => e.id === envelope.id);
    expect(await effectsOf(database.db, envelope.id)).toHaveLength(1);
  });

  test('when an event already handled is delivered again, then its before step does not run', async () => {
    const befores: string[] = [];
    const consumer: Consumer<TestDB, TestSchemas, 'thing.happened', void, void> = {
      event: 'thing.happened',
      async before(event) {
        befores.push(event.id);
      },
      handle: (trx, event) => recordingConsumer('thing.happened').handle(trx, event),
    };
    const { bus, started } = startBus({ consumers: [consumer] });
    await started;
    const envelope = rawEnvelope('thing.happened', { n: 3 });

    await admin.publish(exchange, 'thing.happened', envelope);
    await bus.waitFor('acked', (e) => e.id === envelope.id);
    await admin.publish(exchange, 'thing.happened', envelope);
    await bus.waitFor('acked', (e) => e.id === envelope.id);

    expect(befores).toEqual([envelope.id]);
    expect(await effectsOf(database.db, envelope.id)).toHaveLength(1);
  });

  test('when a consumer has all three steps, then before hands its value to handle, and handle its result to afterCommit', async () => {
    const committed = gate<{ eventId: string; result: { stored: number } }>();
    const consumer: Consumer<TestDB, TestSchemas, 'thing.happened', number, { stored: number }> = {
      event: 'thing.happened',
      before: async (event) => event.data.n * 10,
      async handle(trx, event, tenfold) {
        await trx.insertInto('effects').values({ event_id: event.id, consumer: 'steps', n: tenfold }).execute();
        return { stored: tenfold };
      },
      afterCommit: (event, result) => committed.open({ eventId: event.id, result }),
    };
    const { bus, started } = startBus({ consumers: [consumer] });
    await started;

    const envelope = await publishInTransaction(bus, 'thing.happened', 4);

    expect(await committed.opened).toEqual({ eventId: envelope.id, result: { stored: 40 } });
    expect(await effectsOf(database.db, envelope.id)).toMatchObject([{ consumer: 'steps', n: 40 }]);
  });

  test('when a message fails its schema or is not JSON, then it goes straight to the dead-letter queue with the reason', async () => {
    const handled = recordingConsumer('thing.happened');
    const { bus, queue, started } = startBus({ consumers: [handled] });
    await started;
    const badData = rawEnvelope('thing.happened', { n: 'seven' });
    const garbage = `not json ${uniqueName('x')}`;

    await admin.publish(exchange, 'thing.happened', badData);
    await admin.publish(exchange, 'thing.happened', garbage);

    await bus.waitFor('dead-lettered', (e) => e.id === badData.id);
    await bus.waitFor('dead-lettered', (e) => e.data === garbage);
    const dead = new Map(
      (await admin.drain(deadLetterQueueOf(queue))).map((m) => [m.content.toString(), m.properties.headers]),
    );
    expect(dead.size).toBe(2);
    expect(dead.get(JSON.stringify(badData))?.['x-dead-reason']).toMatch(/^poisoned: bad data: n:/);
    expect(dead.get(garbage)?.['x-dead-reason']).toBe('poisoned: the body is not JSON');
    expect(await effectsOf(database.db, badData.id)).toHaveLength(0);
  });

  test('when the handler keeps failing, then it is retried with back-off and dead-lettered after maxAttempts', async () => {
    const calls: number[] = [];
    const failing: TestConsumer = {
      event: 'thing.failed',
      async handle(trx, event) {
        calls.push(Date.now());
        await trx.insertInto('effects').values({ event_id: event.id, consumer: 'failing', n: event.data.n }).execute();
        throw new Error('boom');
      },
    };
    const { bus, queue, started } = startBus({ consumers: [failing], maxAttempts: 3 });
    await started;

    const event = await publishInTransaction(bus, 'thing.failed', 1);
    bus.notify();

    await bus.waitFor('retried', (e) => e.id === event.id);
    await bus.waitFor('retried', (e) => e.id === event.id);
    await bus.waitFor('dead-lettered', (e) => e.id === event.id);
    expect(calls).toHaveLength(3);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(retryDelaysMs[0]! - 10);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(retryDelaysMs[1]! - 10);
    const [dead] = await admin.drain(deadLetterQueueOf(queue));
    expect(JSON.parse(dead!.content.toString())).toMatchObject({ id: event.id, type: 'thing.failed' });
    expect(dead!.properties.headers).toMatchObject({
      'x-dead-reason': 'handler failed 3 times: boom',
      'x-attempts': 3,
    });
    // Every failed attempt rolled back its effect (and its inbox row).
    expect(await effectsOf(database.db, event.id)).toHaveLength(0);
  });

  test('when the handler fails once, then the retry succeeds and the effect happens once', async () => {
    let failures = 0;
    const flaky: TestConsumer = {
      event: 'thing.happened',
      async handle(trx, event) {
        await recordingConsumer('thing.happened').handle(trx, event);
        if (failures++ === 0) throw new Error('transient');
      },
    };
    const { bus, started } = startBus({ consumers: [flaky] });
    await started;

    const event = await publishInTransaction(bus, 'thing.happened', 3);
    bus.notify();

    await bus.waitFor('retried', (e) => e.id === event.id);
    await bus.waitFor('acked', (e) => e.id === event.id);
    expect(await effectsOf(database.db, event.id)).toHaveLength(1);
  });
});

describe('RabbitMQ bus: reconnecting', () => {
  test('when the connection is killed, then consuming resumes by itself', async () => {
    const { bus, started } = startBus({ amqpUrl: proxy.url, consumers: [recordingConsumer('thing.happened')] });
    await started;
    const before = rawEnvelope('thing.happened', { n: 1 });
    await admin.publish(exchange, 'thing.happened', before);
    await bus.waitFor('acked', (e) => e.id === before.id);

    const reconnected = proxy.nextConnection();
    proxy.killConnections();
    const after = rawEnvelope('thing.happened', { n: 2 });
    await admin.publish(exchange, 'thing.happened', after);

    await reconnected;
    await bus.waitFor('acked', (e) => e.id === after.id);
    expect(await effectsOf(database.db, after.id)).toHaveLength(1);
    await expect(bus.ping()).resolves.toBeUndefined();
  });

  test('when the connection dies while a handler runs, then its ack is not sent on a stale channel and the redelivery is skipped', async () => {
    const entered = gate();
    const release = gate();
    const slow: TestConsumer = {
      event: 'thing.happened',
      async handle(trx, event) {
        await recordingConsumer('thing.happened').handle(trx, event);
        entered.open();
        await release.opened;
      },
    };
    const { bus, started } = startBus({ amqpUrl: proxy.url, consumers: [slow] });
    await started;
    const event = rawEnvelope('thing.happened', { n: 5 });
    await admin.publish(exchange, 'thing.happened', event);
    await entered.opened;

    const reconnected = proxy.nextConnection();
    proxy.killConnections();
    await reconnected;
    await bus.ready();
    release.open();

    await bus.waitFor('acked', (e) => e.id === event.id);
    expect(await effectsOf(database.db, event.id)).toHaveLength(1);
    // The new channel is healthy: no "unknown delivery tag" closed it, and it keeps consuming.
    const connections = proxy.accepted;
    const next = rawEnvelope('thing.happened', { n: 6 });
    await admin.publish(exchange, 'thing.happened', next);
    await bus.waitFor('acked', (e) => e.id === next.id);
    expect(proxy.accepted).toBe(connections);
  });
});
