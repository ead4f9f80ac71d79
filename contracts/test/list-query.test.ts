import { describe, expect, test } from '@jest/globals';
import {
  AdminHistoryQuery,
  AdminPaymentsQuery,
  AdminSysValsQuery,
  AdminUsersQuery,
  ArticleSearchQuery,
  ArticlesQuery,
  ListQuery,
  paginationOf,
  StatsSeriesQuery,
} from '../src/index';

describe('list query parameters', () => {
  test('when query strings carry numbers, then they are coerced; when absent, then the spec defaults apply', () => {
    expect(AdminUsersQuery.parse({ page: '3', limit: '20', sortField: 'email', sortOrder: '1' })).toEqual({
      page: 3,
      limit: 20,
      sortField: 'email',
      sortOrder: 'asc',
    });
    expect(AdminUsersQuery.parse({})).toEqual({ page: 1, limit: 10, sortField: 'id', sortOrder: 'desc' });
    expect(AdminSysValsQuery.parse({})).toMatchObject({ sortField: 'key', sortOrder: 'asc' });
    expect(ArticlesQuery.parse({})).toEqual({ page: 1, limit: 12 });
  });

  test('when sortOrder is 1, -1, 0, asc or desc, then it is normalized; otherwise refused', () => {
    expect(ListQuery.parse({ sortOrder: '-1' }).sortOrder).toBe('desc');
    expect(ListQuery.parse({ sortOrder: '0' }).sortOrder).toBe('desc');
    expect(ListQuery.parse({ sortOrder: 'asc' }).sortOrder).toBe('asc');
    expect(ListQuery.safeParse({ sortOrder: 'sideways' }).success).toBe(false);
  });

  test('when page or limit is out of bounds or not an integer, then it is refused with a Russian message', () => {
    for (const bad of [
      { page: '0' },
      { page: '-2' },
      { page: '1.5' },
      { page: 'abc' },
      { limit: '0' },
      { limit: '101' },
    ]) {
      const result = AdminUsersQuery.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/страниц/);
    }
    expect(AdminUsersQuery.parse({ limit: '100' }).limit).toBe(100);
  });

  test('when sortField is not a sortable column, then it is refused', () => {
    const result = AdminUsersQuery.safeParse({ sortField: 'password_hash' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Недопустимое поле сортировки');
    expect(ListQuery.safeParse({ sortField: 'name; drop table' }).success).toBe(false);
  });

  test('when filters are blank, then they are absent; when set, then trimmed and coerced', () => {
    expect(AdminUsersQuery.parse({ email: '', username: '  ', tariff_id: '' })).toEqual({
      page: 1,
      limit: 10,
      sortField: 'id',
      sortOrder: 'desc',
    });
    expect(AdminUsersQuery.parse({ email: ' gmail ', tariff_id: '2' })).toMatchObject({ email: 'gmail', tariff_id: 2 });
    expect(AdminPaymentsQuery.parse({ status: '', userId: '7' })).toMatchObject({ userId: 7 });
    expect(AdminPaymentsQuery.parse({ status: 'succeeded' }).status).toBe('succeeded');
    expect(AdminPaymentsQuery.safeParse({ status: 'paid' }).success).toBe(false);
  });

  test('when the history list gets pageSize or limit, then either sets the page size', () => {
    expect(AdminHistoryQuery.parse({ pageSize: '20' }).limit).toBe(20);
    expect(AdminHistoryQuery.parse({ limit: '50' }).limit).toBe(50);
    expect(AdminHistoryQuery.parse({ limit: '50', pageSize: '20' }).limit).toBe(50);
    expect(AdminHistoryQuery.parse({ userId: '5', message: 'привет' })).toEqual({
      page: 1,
      limit: 10,
      sortField: 'created_at',
      sortOrder: 'desc',
      userId: 5,
      message: 'привет',
    });
    expect(AdminHistoryQuery.safeParse({ pageSize: '500' }).success).toBe(false);
  });

  test('when the article search text is blank or missing, then q is an empty string, not an error', () => {
    expect(ArticleSearchQuery.parse({}).q).toBe('');
    expect(ArticleSearchQuery.parse({ q: '  модели ' }).q).toBe('модели');
  });

  test('when stats series days are out of range, then refused; default 30', () => {
    expect(StatsSeriesQuery.parse({}).days).toBe(30);
    expect(StatsSeriesQuery.safeParse({ days: '0' }).success).toBe(false);
    expect(StatsSeriesQuery.safeParse({ days: '400' }).success).toBe(false);
  });

  test('when pagination is computed, then pages is the ceiling and 0 for an empty list', () => {
    expect(paginationOf(2, 12, 25)).toEqual({ page: 2, limit: 12, total: 25, pages: 3 });
    expect(paginationOf(1, 12, 0)).toEqual({ page: 1, limit: 12, total: 0, pages: 0 });
  });
});
