import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { busMigrations, createBus, createInProcessBroker } from '../src/bus';
import { type Database, openDatabase } from '../src/db';
import {
  type TestDB,
  effectsMigration,
  effectsOf,
  rawEnvelope,
  recordingConsumer,
  silentLogger,
  testSchemas,
} from './bus-helpers';

// The embedded default exactly as `npm start` runs it with no URLs: PGlite files and the in-process broker.
let dataDir: string;
let database: Database<TestDB>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'kit-bus-'));
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

describe('bus on PGlite', () => {
  test('the outbox relay and the inbox work on PGlite: delivered once, a duplicate skipped', async () => {
    const broker = createInProcessBroker();
    const bus = createBus({
      service: 'bus-test',
      db: database.db,
      schemas: testSchemas,
      logger: silentLogger,
      broker,
      consumers: [recordingConsumer('thing.happened')],
    });
    await bus.start();
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
});
