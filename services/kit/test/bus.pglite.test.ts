import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Kysely } from 'kysely';
import { busMigrations, createBus, createInProcessBroker, type BusTables } from '../src/bus';
import { type Database, openDatabase } from '../src/db';
import { pgliteDataDir } from '../src/testing';
import {
  type TestDB,
  effectsMigration,
  effectsOf,
  rawEnvelope,
  recordingConsumer,
  silentLogger,
  testSchemas,
  type TestConsumer,
} from './bus-helpers';

// The embedded default exactly as `npm start` runs it with no URLs: PGlite files and the in-process broker.
let dataDir: string;
let database: Database<TestDB>;

beforeAll(async () => {
  dataDir = await pgliteDataDir('kit-bus');
  database = await openDatabase<TestDB>({
    service: 'bus-test',
    dataDir,
    migrations: { ...busMigrations, ...effectsMigration },
    logger: silentLogger,
  });
  // Creating a PGlite cluster is slow on a busy machine.
}, 60_000);

afterAll(async () => {
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The bus of the test's database on a broker of its own, started, with these consumers. */
async function startedBus(consumers: TestConsumer[]) {
  const broker = createInProcessBroker();
  const bus = createBus({
    service: 'bus-test',
    db: database.db,
    schemas: testSchemas,
    logger: silentLogger,
    broker,
    consumers,
  });
  await bus.start();
  return { broker, bus };
}

describe('bus on PGlite', () => {
  test('the outbox relay and the inbox work on PGlite: delivered once, a duplicate skipped', async () => {
    const { broker, bus } = await startedBus([recordingConsumer('thing.happened')]);
    try {
      const event = await database.db.transaction().execute((trx) => bus.publish(trx, 'thing.happened', { n: 1 }));
      bus.notify();
      await bus.waitFor('published', (e) => e.id === event.id);
      await bus.waitFor('acked', (e) => e.id === event.id);

      broker.publish('thing.happened', JSON.stringify(event));
      await bus.waitFor('acked', (e) => e.id === event.id);
      expect(await effectsOf(database.db, event.id)).toHaveLength(1);

      const poisoned = rawEnvelope('thing.happened', { n: 'x' });
      broker.publish('thing.happened', JSON.stringify(poisoned));
      await bus.waitFor('dead-lettered', (e) => e.id === poisoned.id);
    } finally {
      await bus.close();
    }
  });

  test('an idempotent consumer runs on every delivery, with no inbox claim: its conditional write keeps one effect', async () => {
    const committed: number[] = [];
    const onceOnly: TestConsumer = {
      event: 'thing.happened',
      name: 'once-only',
      idempotent: true,
      async handle(db, envelope) {
        // Written only when not there yet: a second delivery finds the row and writes nothing.
        const seen = await db.selectFrom('effects').select('n').where('event_id', '=', envelope.id).executeTakeFirst();
        if (seen) return 0;
        await db
          .insertInto('effects')
          .values({ event_id: envelope.id, consumer: 'once-only', n: envelope.data.n })
          .execute();
        return 1;
      },
      afterCommit: (_event, result) => void committed.push(result as number),
    };
    const { broker, bus } = await startedBus([onceOnly]);
    try {
      const event = rawEnvelope('thing.happened', { n: 7 });
      broker.publish('thing.happened', JSON.stringify(event));
      await bus.waitFor('acked', (e) => e.id === event.id);
      broker.publish('thing.happened', JSON.stringify(event));
      await bus.waitFor('acked', (e) => e.id === event.id);
      await expect(effectsOf(database.db, event.id)).resolves.toHaveLength(1);
      expect(committed).toEqual([1, 0]);
      const claims = await (database.db as unknown as Kysely<BusTables>)
        .selectFrom('inbox')
        .select('event_id')
        .where('consumer', '=', 'once-only')
        .execute();
      expect(claims).toEqual([]);
    } finally {
      await bus.close();
    }
  });
});
