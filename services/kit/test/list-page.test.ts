import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type Generated, type Kysely, sql } from 'kysely';
import { containsPattern, createLogger, listPage, openDatabase, type Database } from '../src';
import { createTestDatabase, dropTestDatabase } from '../src/testing';

interface ItemsDatabase {
  items: { id: Generated<number>; name: string; rank: number | null };
}

const logger = createLogger({ name: 'list-page-test', level: 'silent' });
let databaseUrl: string;
let database: Database<ItemsDatabase>;
let db: Kysely<ItemsDatabase>;

// Ids 1–5; ranks with a tie (2 and 3) and an empty one (5); names with a LIKE wildcard in one.
const ITEMS = [
  { name: 'alpha', rank: 20 },
  { name: 'beta', rank: 10 },
  { name: 'gamma', rank: 10 },
  { name: '50%_off', rank: 30 },
  { name: 'delta', rank: null },
];

beforeAll(async () => {
  databaseUrl = await createTestDatabase('kit_list_page');
  database = await openDatabase<ItemsDatabase>({ service: 'list', url: databaseUrl, migrations: {}, logger });
  db = database.db;
  await sql`create table items (id serial primary key, name text not null, rank int)`.execute(db);
  await db.insertInto('items').values(ITEMS).execute();
});

afterAll(async () => {
  await database.close();
  await dropTestDatabase(databaseUrl);
});

const ids = async (...args: Parameters<typeof listPage<ItemsDatabase, 'items', { id: number }>>) => {
  const { rows, total } = await listPage(...args);
  return { ids: rows.map((row) => row.id), total };
};
const all = () => db.selectFrom('items').select('id');

describe('listPage', () => {
  test('when sorted by a column, then ties go by id the same way and empty values where asked', async () => {
    const page = { page: 1, limit: 10 };
    expect(await ids(all(), { by: 'rank', order: 'asc' }, page)).toEqual({ ids: [2, 3, 1, 4, 5], total: 5 });
    expect(await ids(all(), { by: 'rank', order: 'desc' }, page)).toEqual({ ids: [5, 4, 1, 3, 2], total: 5 });
    expect((await ids(all(), { by: 'rank', order: 'desc', nulls: 'last' }, page)).ids).toEqual([4, 1, 3, 2, 5]);
    expect((await ids(all(), { by: 'rank', order: 'asc', nulls: 'smallest' }, page)).ids).toEqual([5, 2, 3, 1, 4]);
    expect((await ids(all(), { by: 'rank', order: 'desc', nulls: 'smallest' }, page)).ids).toEqual([4, 1, 3, 2, 5]);
  });

  test('when a page is asked for, then its rows come with the total of all that match', async () => {
    const sort = { by: 'rank', order: 'asc' } as const;
    expect(await ids(all(), sort, { page: 2, limit: 2 })).toEqual({ ids: [1, 4], total: 5 });
    expect(await ids(all(), sort, { page: 4, limit: 2 })).toEqual({ ids: [], total: 5 });
    const filtered = all().where('rank', '=', 10);
    expect(await ids(filtered, sort, { page: 1, limit: 1 })).toEqual({ ids: [2], total: 2 });
  });

  test('when a text filter holds a LIKE wildcard, then it matches only itself', async () => {
    const matching = (text: string) => all().where('name', 'ilike', containsPattern(text));
    expect(await ids(matching('%_'), { by: 'id', order: 'asc' }, { page: 1, limit: 10 })).toEqual({
      ids: [4],
      total: 1,
    });
    expect(await ids(matching('ALP'), { by: 'id', order: 'asc' }, { page: 1, limit: 10 })).toEqual({
      ids: [1],
      total: 1,
    });
  });

  test('when the rows carry a join that only adds columns, then the total counts the main table as given', async () => {
    const joined = db
      .selectFrom('items')
      .innerJoin('items as same', 'same.id', 'items.id')
      .select(['items.id', 'same.name']);
    const { rows, total } = await listPage(
      joined,
      { by: 'items.rank', order: 'asc', id: 'items.id' },
      { page: 1, limit: 3 },
      db.selectFrom('items'),
    );
    expect({ ids: rows.map((row) => row.id), total }).toEqual({ ids: [2, 3, 1], total: 5 });
  });
});
