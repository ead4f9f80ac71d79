import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, expect, test } from '@jest/globals';
import { type Generated, Kysely, sql, type Migration } from 'kysely';
import { createLogger, openDatabase } from '../src';
import { migrate } from '../src/db/migrate';
import { pgliteDialect, pgliteSession } from '../src/db/pglite-dialect';
import { copyPristineCluster, pgliteDataDir } from '../src/testing';

interface DB {
  notes: { id: Generated<number>; body: string; amount: Generated<string> };
}

const migrations: Record<string, Migration> = {
  '0001-notes': {
    async up(db) {
      await sql`create table notes (id serial primary key, body text not null)`.execute(db);
    },
  },
  '0002-amount': {
    async up(db) {
      await sql`alter table notes add column amount numeric(12, 2) not null default 0`.execute(db);
    },
  },
};
const logger = createLogger({ name: 'test', level: 'silent' });
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A database as the earlier layout kept it: its own cluster in DATA_DIR/<service>, tables in public, one migration behind. */
async function earlierLayout(dataDir: string, service: string) {
  const folder = path.join(dataDir, service);
  await copyPristineCluster(folder);
  const pglite = await PGlite.create(folder);
  const db = new Kysely<DB>({ dialect: pgliteDialect(pgliteSession(pglite), 'public') });
  await migrate(db, { '0001-notes': migrations['0001-notes']! }, logger);
  await sql`insert into notes (body) values ('first'), ('second'), ('third')`.execute(db);
  await sql`delete from notes where body = 'third'`.execute(db);
  await pglite.close();
}

test('a database of the earlier layout is taken over into the service schema, once, its folder kept', async () => {
  const dataDir = await pgliteDataDir('kit-takeover');
  folders.push(dataDir);
  await earlierLayout(dataDir, 'notes');

  const first = await openDatabase<DB>({ service: 'notes', dataDir, migrations, logger });
  // The earlier rows, brought to the newest migration, and the sequence going on after the old one.
  await first.db.insertInto('notes').values({ body: 'after', amount: '1.50' }).execute();
  const rows = await first.db.selectFrom('notes').selectAll().orderBy('id').execute();
  expect(rows).toEqual([
    { id: 1, body: 'first', amount: '0.00' },
    { id: 2, body: 'second', amount: '0.00' },
    { id: 4, body: 'after', amount: '1.50' },
  ]);
  await first.close();
  expect(existsSync(path.join(dataDir, 'notes'))).toBe(false);
  expect(existsSync(path.join(dataDir, 'notes.taken-over', 'PG_VERSION'))).toBe(true);

  const second = await openDatabase<DB>({ service: 'notes', dataDir, migrations, logger });
  expect(await second.db.selectFrom('notes').select('body').orderBy('id').execute()).toHaveLength(3);
  await second.close();
});

test('an earlier-layout folder beside data of the new layout is refused, nothing overwritten', async () => {
  const dataDir = await pgliteDataDir('kit-takeover');
  folders.push(dataDir);
  const current = await openDatabase<DB>({ service: 'notes', dataDir, migrations, logger });
  await current.db.insertInto('notes').values({ body: 'newer', amount: '2.00' }).execute();
  await current.close();
  await earlierLayout(dataDir, 'notes');

  await expect(openDatabase<DB>({ service: 'notes', dataDir, migrations, logger })).rejects.toThrow(
    /holds a database of an earlier version.*Nothing was overwritten/,
  );
  const again = await openDatabase<DB>({ service: 'other', dataDir, migrations, logger });
  await again.close();
  await rm(path.join(dataDir, 'notes'), { recursive: true });
  const kept = await openDatabase<DB>({ service: 'notes', dataDir, migrations, logger });
  expect(await kept.db.selectFrom('notes').select('body').execute()).toEqual([{ body: 'newer' }]);
  await kept.close();
});
