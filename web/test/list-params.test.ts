import { describe, expect, test } from '@jest/globals';

import {
  changeFilters,
  changeTable,
  clearFilters,
  readListState,
  toApiListQuery,
  writeListState,
  type ListDefaults,
} from '../src/lib/list-params';

const users: ListDefaults<'email' | 'username'> = {
  sort: { field: 'id', order: 'desc' },
  filters: { email: '', username: '' },
  sortFields: ['id', 'email', 'created_at'],
};

const read = (query: string) => readListState(new URLSearchParams(query), users);

describe('readListState (URL → state)', () => {
  test('an empty URL gives page 1 (index 0), page size 10, the default sort and empty filters', () => {
    expect(read('')).toEqual({
      pageIndex: 0,
      pageSize: 10,
      sorting: { field: 'id', order: 'desc' },
      filters: { email: '', username: '' },
    });
  });

  test('reads the 1-based page, the page size, the sort and the filters', () => {
    expect(read('page=3&pageSize=50&sortField=email&sortOrder=asc&email=a%40b.c&other=x')).toEqual({
      pageIndex: 2,
      pageSize: 50,
      sorting: { field: 'email', order: 'asc' },
      filters: { email: 'a@b.c', username: '' },
    });
  });

  test('invalid values fall back to the defaults', () => {
    expect(read('page=0&pageSize=15&sortField=password&sortOrder=up')).toMatchObject({
      pageIndex: 0,
      pageSize: 10,
      sorting: { field: 'id', order: 'desc' },
    });
    expect(read('page=-2&pageSize=abc').pageIndex).toBe(0);
    expect(read('page=2.5').pageIndex).toBe(0);
  });

  test('a sort field alone keeps the default order', () => {
    expect(read('sortField=created_at').sorting).toEqual({ field: 'created_at', order: 'desc' });
  });

  test('without a sortFields list any field is accepted', () => {
    const state = readListState(new URLSearchParams('sortField=key'), { sort: { field: 'id', order: 'asc' } });
    expect(state.sorting).toEqual({ field: 'key', order: 'asc' });
    expect(state.filters).toEqual({});
  });
});

describe('writeListState (state → URL)', () => {
  test('the default state writes nothing', () => {
    expect(writeListState(read(''), users).toString()).toBe('');
  });

  test('writes only what differs from the defaults and keeps parameters it does not own', () => {
    const state = { ...read(''), pageIndex: 1, pageSize: 20, filters: { email: 'x', username: '' } };
    const params = writeListState(state, users, new URLSearchParams('tab=2&page=9'));
    expect(Object.fromEntries(params)).toEqual({ tab: '2', page: '2', pageSize: '20', email: 'x' });
  });

  test('a non-default sort writes both field and order', () => {
    const state = { ...read(''), sorting: { field: 'id', order: 'asc' as const } };
    expect(Object.fromEntries(writeListState(state, users))).toEqual({ sortField: 'id', sortOrder: 'asc' });
  });

  test('a filter cleared below a non-empty default is written as empty', () => {
    const history: ListDefaults<'userId'> = { sort: { field: 'created_at', order: 'desc' }, filters: { userId: '7' } };
    const state = readListState(new URLSearchParams(), history);
    expect(state.filters.userId).toBe('7');
    expect(writeListState({ ...state, filters: { userId: '' } }, history).toString()).toBe('userId=');
  });

  test('URL → state → URL is stable', () => {
    const query = 'page=4&pageSize=20&sortField=created_at&sortOrder=asc&email=e&username=u';
    expect(writeListState(read(query), users).toString()).toBe(query);
  });
});

describe('state changes', () => {
  const onPage3 = { ...read(''), pageIndex: 2, filters: { email: 'a', username: '' } };

  test('a filter change returns to page 1 and keeps the other filters', () => {
    expect(changeFilters(onPage3, { username: 'bob' })).toMatchObject({
      pageIndex: 0,
      filters: { email: 'a', username: 'bob' },
    });
  });

  test('resetting the filters returns to page 1 and keeps page size and sort', () => {
    const state = { ...onPage3, pageSize: 50, sorting: { field: 'email', order: 'asc' as const } };
    expect(clearFilters(state, users)).toEqual({ ...state, pageIndex: 0, filters: { email: '', username: '' } });
  });

  test('a page change keeps the page; a page size or sort change returns to page 1', () => {
    const table = { pageIndex: 2, pageSize: 10, sorting: onPage3.sorting };
    expect(changeTable(onPage3, { ...table, pageIndex: 3 }).pageIndex).toBe(3);
    expect(changeTable(onPage3, { ...table, pageIndex: 5, pageSize: 20 })).toMatchObject({
      pageIndex: 0,
      pageSize: 20,
    });
    expect(changeTable(onPage3, { ...table, sorting: { field: 'id', order: 'asc' } })).toMatchObject({
      pageIndex: 0,
      sorting: { field: 'id', order: 'asc' },
    });
    expect(changeTable(onPage3, { ...table, pageIndex: 2 }).filters).toEqual(onPage3.filters);
  });
});

describe('toApiListQuery', () => {
  test('page is 1-based, sortOrder is 1 for asc and -1 for desc, blank filters are left out, others trimmed', () => {
    const state = { ...read(''), pageIndex: 1, pageSize: 20, filters: { email: '  a@b.c ', username: '   ' } };
    expect(toApiListQuery(state)).toEqual({ page: 2, limit: 20, sortField: 'id', sortOrder: -1, email: 'a@b.c' });
    expect(toApiListQuery({ ...state, sorting: { field: 'email', order: 'asc' } }).sortOrder).toBe(1);
  });

  test('the page-size key can be renamed (history sends pageSize)', () => {
    const state = readListState(new URLSearchParams('userId=5'), {
      sort: { field: 'created_at', order: 'desc' },
      filters: { userId: '', username: '', message: '' },
    });
    expect(toApiListQuery(state, { limitKey: 'pageSize' })).toEqual({
      page: 1,
      pageSize: 10,
      sortField: 'created_at',
      sortOrder: -1,
      userId: '5',
    });
  });
});
