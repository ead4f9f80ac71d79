import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, test } from '@jest/globals';
import { sql, type Kysely, type Migration } from 'kysely';
import { createLogger, openDatabase } from '../src';
import { createTestDatabase, dropTestDatabase, pgliteDataDir } from '../src/testing';

interface DB {
  ledger: { id: string; amount: string; big: string };
}

const migrations: Record<string, Migration> = {
  '0001_ledger': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ledger')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('amount', 'numeric(14, 6)', (c) => c.notNull())
        .addColumn('big', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};

const logger = createLogger({ name: 'db-test', level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function postgres() {
  const url = await createTestDatabase('kitdb');
  cleanups.push(() => dropTestDatabase(url));
  return { url };
}

async function pglite() {
  const dataDir = await pgliteDataDir('kit-pglite');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { dataDir };
}

describe.each([
  ['PostgreSQL', postgres],
  ['PGlite', pglite],
])('openDatabase on %s', (_name, target) => {
  test('migrates, keeps exact decimals as strings, and reopens with the data kept', async () => {
    const where = await target();
    const first = await openDatabase<DB>({ service: 'ledger', migrations, logger, ...where });
    await first.db.insertInto('ledger').values({ id: 'a', amount: '0.000150', big: '9007199254740993' }).execute();
    await first.close();

    const second = await openDatabase<DB>({ service: 'ledger', migrations, logger, ...where });
    const row = await second.db.selectFrom('ledger').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 'a', amount: '0.000150', big: '9007199254740993' });
    await second.ping();
    await second.close();
  });

  test('a transaction is isolated and rolls back on error', async () => {
    const where = await target();
    const { db, close } = await openDatabase<DB>({ service: 'ledger', migrations, logger, ...where });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('ledger').values({ id: 'x', amount: '1', big: '1' }).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const outside = db
      .selectFrom('ledger')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect((await outside).n).toBe(0);
    const updated = await db.updateTable('ledger').set({ amount: '2' }).where('id', '=', 'none').executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(0);
    await close();
  });
});
