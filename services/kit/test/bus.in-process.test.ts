import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { type Bus, busMigrations, createBus, createInProcessBroker, type InProcessBroker } from '../src/bus';
import { type Database, openDatabase } from '../src/db';
import { assertOutsideTransaction } from '../src/db/transaction-guard';
import { createTestDatabase, dropTestDatabase } from '../src/testing';
import {
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

// The in-process broker of the embedded default, over two services' databases (PGlite: bus.pglite.test.ts).
const databases: { url: string; database: Database<TestDB> }[] = [];
const buses: Bus<TestDB, TestSchemas>[] = [];
let producerDb: Database<TestDB>;
let consumerDb: Database<TestDB>;

async function openServiceDatabase(service: string) {
  const url = await createTestDatabase(`kit_bus_${service}`);
  const database = await openDatabase<TestDB>({
    service,
    url,
    migrations: { ...busMigrations, ...effectsMigration },
    logger: silentLogger,
  });
  databases.push({ url, database });
  return database;
}

function makeBus(
  broker: InProcessBroker,
  database: Database<TestDB>,
  service: string,
  consumers: TestConsumer[] = [],
  maxAttempts = 3,
) {
  const bus = createBus({
    service,
    db: database.db,
    schemas: testSchemas,
    logger: silentLogger,
    broker,
    consumers,
    maxAttempts,
    retryDelaysMs: [30, 60],
    relayIntervalMs: 100,
  });
  buses.push(bus);
  return bus;
}

beforeAll(async () => {
  producerDb = await openServiceDatabase('producer');
  consumerDb = await openServiceDatabase('consumer');
});

afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

afterAll(async () => {
  for (const { url, database } of databases) {
    await database.close();
    await dropTestDatabase(url);
  }
});

describe('in-process bus', () => {
  test('when a service publishes in a committed transaction, then another service consumes it', async () => {
    const broker = createInProcessBroker();
    const consumer = makeBus(broker, consumerDb, 'consumer', [recordingConsumer('thing.happened')]);
    const producer = makeBus(broker, producerDb, 'producer');
    await Promise.all([consumer.start(), producer.start()]);

    const event = await producerDb.db.transaction().execute((trx) => producer.publish(trx, 'thing.happened', { n: 1 }));
    producer.notify();

    await producer.waitFor('published', (e) => e.id === event.id);
    await consumer.waitFor('acked', (e) => e.id === event.id);
    expect(await effectsOf(consumerDb.db, event.id)).toEqual([
      { event_id: event.id, consumer: 'thing.happened', n: 1 },
    ]);
  });

  test('when the producer tracks transactions, then its consumers do not run inside the relay’s transaction', async () => {
    const tracked = await openDatabase<TestDB>({
      service: 'producer',
      url: databases[0]!.url,
      migrations: { ...busMigrations, ...effectsMigration },
      logger: silentLogger,
      trackTransactions: true,
    });
    try {
      const broker = createInProcessBroker();
      const calls: string[] = [];
      const callingConsumer: TestConsumer = {
        ...recordingConsumer('thing.happened'),
        // A consumer may call another service before its own transaction.
        async before() {
          assertOutsideTransaction('a call to another service');
          calls.push('called');
        },
      };
      const consumer = makeBus(broker, consumerDb, 'consumer', [callingConsumer]);
      const producer = makeBus(broker, tracked, 'producer');
      await Promise.all([consumer.start(), producer.start()]);

      const event = await tracked.db.transaction().execute((trx) => producer.publish(trx, 'thing.happened', { n: 2 }));
      producer.notify();
      await consumer.waitFor('acked', (e) => e.id === event.id);
      expect(calls).toEqual(['called']);
    } finally {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
      await tracked.close();
    }
  });

  test('when the transaction rolls back, then the event is never published', async () => {
    const broker = createInProcessBroker();
    const producer = makeBus(broker, producerDb, 'producer');
    await producer.start();
    let eventId = '';
    await expect(
      producerDb.db.transaction().execute(async (trx) => {
        eventId = (await producer.publish(trx, 'thing.happened', { n: 1 })).id;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await producer.flush();
    const row = await producerDb.db
      .withTables<{ outbox: { id: string } }>()
      .selectFrom('outbox')
      .select('id')
      .where('id', '=', eventId)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  test('when data does not fit the schema, then publish throws and nothing is written', async () => {
    const broker = createInProcessBroker();
    const producer = makeBus(broker, producerDb, 'producer');
    await expect(
      producerDb.db
        .transaction()
        .execute((trx) => producer.publish(trx, 'thing.happened', { n: 'one' } as unknown as { n: number })),
    ).rejects.toThrow();
  });

  test('when consumers register before start, then events published before the consumer starts wait for it', async () => {
    const broker = createInProcessBroker();
    const producer = makeBus(broker, producerDb, 'producer');
    const consumer = makeBus(broker, consumerDb, 'consumer', [recordingConsumer('thing.happened')]);
    await producer.start();
    const event = await producerDb.db.transaction().execute((trx) => producer.publish(trx, 'thing.happened', { n: 2 }));
    await producer.flush();
    await producer.waitFor('published', (e) => e.id === event.id);

    await consumer.start();
    await consumer.waitFor('acked', (e) => e.id === event.id);
    expect(await effectsOf(consumerDb.db, event.id)).toHaveLength(1);
  });

  test('when the broker is held, then an event published before a later service exists reaches it once opened', async () => {
    const broker = createInProcessBroker({ held: true });
    const producer = makeBus(broker, producerDb, 'producer');
    await producer.start();
    const event = await producerDb.db.transaction().execute((trx) => producer.publish(trx, 'thing.happened', { n: 9 }));
    await producer.flush();
    await producer.waitFor('published', (e) => e.id === event.id);

    const consumer = makeBus(broker, consumerDb, 'consumer', [recordingConsumer('thing.happened')]);
    await consumer.start();
    broker.open();

    await consumer.waitFor('acked', (e) => e.id === event.id);
    expect(await effectsOf(consumerDb.db, event.id)).toHaveLength(1);
  });

  test('when the same event is delivered twice, then the effect happens once', async () => {
    const broker = createInProcessBroker();
    const consumer = makeBus(broker, consumerDb, 'consumer', [recordingConsumer('thing.happened')]);
    await consumer.start();
    const envelope = rawEnvelope('thing.happened', { n: 3 });

    broker.publish('thing.happened', JSON.stringify(envelope));
    broker.publish('thing.happened', JSON.stringify(envelope));

    await consumer.waitFor('acked', (e) => e.id === envelope.id);
    await consumer.waitFor('acked', (e) => e.id === envelope.id);
    expect(await effectsOf(consumerDb.db, envelope.id)).toHaveLength(1);
  });

  test('when a message is poisoned, then it is dead-lettered at once with the reason', async () => {
    const broker = createInProcessBroker();
    const consumer = makeBus(broker, consumerDb, 'consumer', [recordingConsumer('thing.happened')]);
    await consumer.start();
    const envelope = rawEnvelope('thing.happened', { n: 'three' });

    broker.publish('thing.happened', JSON.stringify(envelope));

    await consumer.waitFor('dead-lettered', (e) => e.id === envelope.id);
    expect(broker.deadLetters('consumer')).toEqual([
      expect.objectContaining({
        body: JSON.stringify(envelope),
        attempts: 1,
        reason: expect.stringMatching(/^poisoned/),
      }),
    ]);
  });

  test('when the handler keeps failing, then it is retried with back-off and then dead-lettered', async () => {
    const broker = createInProcessBroker();
    const calls: number[] = [];
    const failing: TestConsumer = {
      event: 'thing.failed',
      async handle() {
        calls.push(Date.now());
        throw new Error('boom');
      },
    };
    const consumer = makeBus(broker, consumerDb, 'consumer', [failing], 3);
    await consumer.start();
    const envelope = rawEnvelope('thing.failed', { n: 4 });

    broker.publish('thing.failed', JSON.stringify(envelope));

    await consumer.waitFor('retried', (e) => e.id === envelope.id);
    await consumer.waitFor('retried', (e) => e.id === envelope.id);
    await consumer.waitFor('dead-lettered', (e) => e.id === envelope.id);
    expect(calls).toHaveLength(3);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(50);
    expect(broker.deadLetters('consumer')).toEqual([
      expect.objectContaining({ attempts: 3, reason: 'handler failed 3 times: boom' }),
    ]);
  });

  test('when the handler fails once, then the retry applies the effect once', async () => {
    const broker = createInProcessBroker();
    let failures = 0;
    const flaky: TestConsumer = {
      event: 'thing.happened',
      async handle(trx, event) {
        await recordingConsumer('thing.happened').handle(trx, event);
        if (failures++ === 0) throw new Error('transient');
      },
    };
    const consumer = makeBus(broker, consumerDb, 'consumer', [flaky]);
    await consumer.start();
    const envelope = rawEnvelope('thing.happened', { n: 5 });

    broker.publish('thing.happened', JSON.stringify(envelope));

    await consumer.waitFor('retried', (e) => e.id === envelope.id);
    await consumer.waitFor('acked', (e) => e.id === envelope.id);
    expect(await effectsOf(consumerDb.db, envelope.id)).toHaveLength(1);
  });

  test('afterCommit runs once the effect is committed: not for a failed attempt, not for a duplicate', async () => {
    const broker = createInProcessBroker();
    let failures = 0;
    const seenAfterCommit: Promise<number>[] = [];
    const consumer = makeBus(broker, consumerDb, 'consumer', [
      {
        event: 'thing.happened',
        async handle(trx, event) {
          await recordingConsumer('thing.happened').handle(trx, event);
          if (failures++ === 0) throw new Error('transient');
        },
        afterCommit(event) {
          // Read outside the handler's transaction: only a committed effect is visible here.
          seenAfterCommit.push(effectsOf(consumerDb.db, event.id).then((effects) => effects.length));
        },
      },
    ]);
    await consumer.start();
    const envelope = rawEnvelope('thing.happened', { n: 6 });

    broker.publish('thing.happened', JSON.stringify(envelope));
    await consumer.waitFor('retried', (e) => e.id === envelope.id);
    await consumer.waitFor('acked', (e) => e.id === envelope.id);
    broker.publish('thing.happened', JSON.stringify(envelope));
    await consumer.waitFor('acked', (e) => e.id === envelope.id);

    expect(await Promise.all(seenAfterCommit)).toEqual([1]);
  });

  test('when the bus closes while a handler runs, then close waits for it to finish', async () => {
    const broker = createInProcessBroker();
    const entered = gate();
    const release = gate();
    const slow: TestConsumer = {
      event: 'thing.happened',
      async handle(trx, event) {
        entered.open();
        await release.opened;
        await recordingConsumer('thing.happened').handle(trx, event);
      },
    };
    const consumer = makeBus(broker, consumerDb, 'consumer', [slow]);
    await consumer.start();
    const envelope = rawEnvelope('thing.happened', { n: 6 });
    broker.publish('thing.happened', JSON.stringify(envelope));
    await entered.opened;

    let closed = false;
    const closing = consumer.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release.open();
    await closing;

    await consumer.waitFor('acked', (e) => e.id === envelope.id);
    expect(await effectsOf(consumerDb.db, envelope.id)).toHaveLength(1);
  });
});
