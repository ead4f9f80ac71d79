import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, test } from '@jest/globals';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { auditLogMigration, createLogger, type Migration, openDatabase, recordAudit, SYSTEM_ACTOR } from '../src';
import { createTestDatabase, dropTestDatabase, migrationsVersion, testInfra } from '../src/testing';

/*
 * The test databases' pool: a copy of a template a test is done with is taken again by the next test
 * as new (no row, sequences from the start, triggers still on), unless the test changed its schema.
 */
const logger = createLogger({ name: 'test-databases', level: 'silent' });

const itemsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table items (id serial primary key, name text not null)`.execute(db);
  },
};
// A name of this run's own: the template is new, so making it is tested too (it and its pool are removed after).
const PREFIX = 'kit_pool';
const migrationsOfThisRun = () => ({
  [`0001_items_${randomBytes(4).toString('hex')}`]: itemsMigration,
  '0002_audit_log': auditLogMigration,
});
const migrations = migrationsOfThisRun();
const changed = migrationsOfThisRun();
const templateOf = (set: Record<string, Migration>) => `template_${PREFIX}_${migrationsVersion(set)}`;
const poolOf = (set: Record<string, Migration>) => `pooled_${PREFIX}_${migrationsVersion(set)}_`;
const pool = poolOf(migrations);

async function onServer<T>(work: (client: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const url = new URL(testInfra.databaseUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databasesNamed = (start: string) =>
  onServer(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) order by datname',
      [start],
    );
    return rows.map((row) => row.datname);
  });

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** The service's view: rows written, a sequence moved on, an audit entry (whose table refuses TRUNCATE). */
async function use(url: string): Promise<void> {
  const database = await openDatabase({ service: PREFIX, url, migrations, logger, poolSize: 1 });
  try {
    await sql`insert into items (name) values ('один'), ('два')`.execute(database.db);
    await database.db
      .transaction()
      .execute((trx) =>
        recordAudit(trx, SYSTEM_ACTOR, { action: 'test.used', target: { type: 'item', id: 1 }, reason: 'Проверка' }),
      );
  } finally {
    await database.close();
  }
}

afterAll(async () => {
  await onServer(async (client) => {
    for (const set of [migrations, changed]) {
      for (const name of await databasesNamed(poolOf(set))) {
        await client.query(`drop database if exists "${name}" with (force)`);
      }
      await client.query(`alter database "${templateOf(set)}" with is_template false`).catch(() => undefined);
      await client.query(`drop database if exists "${templateOf(set)}" with (force)`);
    }
  });
});

describe('test databases', () => {
  test('a copy given back is taken again by the next test as new: no rows, sequences from the start, triggers on', async () => {
    const first = await createTestDatabase(PREFIX, migrations);
    await use(first);
    await dropTestDatabase(first);
    expect(await databasesNamed(nameOf(first))).toEqual([]);
    const pooled = await databasesNamed(pool);
    expect(pooled).toHaveLength(1);

    const second = await createTestDatabase(PREFIX, migrations);
    expect(await databasesNamed(pool)).toEqual([]);
    await onServer(async (client) => {
      expect((await client.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
      expect((await client.query('select count(*)::int as n from audit_log')).rows).toEqual([{ n: 0 }]);
      expect((await client.query('select is_called from audit_log_id_seq')).rows).toEqual([{ is_called: false }]);
      expect((await client.query(`insert into items (name) values ('три') returning id`)).rows).toEqual([{ id: 1 }]);
      await expect(client.query('truncate audit_log')).rejects.toThrow('append-only');
      expect((await client.query('select count(*)::int as n from kysely_migration')).rows).toEqual([{ n: 2 }]);
    }, nameOf(second));
    await dropTestDatabase(second);
    expect(await databasesNamed(pool)).toHaveLength(1);
  });

  test('a copy whose schema the test changed is dropped, not pooled', async () => {
    const before = await databasesNamed(pool);
    const url = await createTestDatabase(PREFIX, migrations);
    await onServer((client) => client.query('alter table items add column extra int'), nameOf(url));
    await dropTestDatabase(url);
    expect(await databasesNamed(nameOf(url))).toEqual([]);
    expect(before).toHaveLength(1);
    expect(await databasesNamed(pool)).toEqual([]);
  });

  test('a database made without migrations is dropped', async () => {
    const url = await createTestDatabase(PREFIX);
    await dropTestDatabase(url);
    expect(await databasesNamed(nameOf(url))).toEqual([]);
  });

  test('changed migrations make a new template, and the copies pooled of the one before are dropped', async () => {
    await dropTestDatabase(await createTestDatabase(PREFIX, migrations));
    expect(await databasesNamed(pool)).toHaveLength(1);
    const url = await createTestDatabase(PREFIX, changed);
    expect(await databasesNamed(pool)).toEqual([]);
    await dropTestDatabase(url);
    expect(await databasesNamed(poolOf(changed))).toHaveLength(1);
  });
});
