import { type Expression, type OrderByItemBuilder, type SelectQueryBuilder, sql } from 'kysely';

/** `text` with LIKE's wildcards (`%`, `_`) and its escape (`\`) taken literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/** An ILIKE pattern matching `text` anywhere. */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;

/** How a list is sorted: a column (by name, `table.column` allowed) or an expression, and the direction. */
export interface ListSort {
  by: string | Expression<unknown>;
  order: 'asc' | 'desc';
  /**
   * Where rows without a value go: 'last' after all others either way, 'smallest' as the smallest value;
   * unset, as the largest (PostgreSQL's own order).
   */
  nulls?: 'last' | 'smallest';
  /** The tie-break column, sorted the same way; `id` unless the table has an alias. */
  id?: string;
}

/** The page asked for: 1-based, `limit` rows each. */
export interface ListPageRequest {
  page: number;
  limit: number;
}

function direction(sort: ListSort) {
  return (ob: OrderByItemBuilder) => {
    const sorted = sort.order === 'asc' ? ob.asc() : ob.desc();
    if (sort.nulls === 'last') return sorted.nullsLast();
    if (sort.nulls === 'smallest') return sort.order === 'asc' ? sorted.nullsFirst() : sorted.nullsLast();
    return sorted;
  };
}

async function countOf<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, unknown>): Promise<number> {
  const row = await query
    .clearSelect()
    .select(sql<string>`count(*)`.as('total'))
    .$castTo<{ total: string }>()
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * One page of a filtered list and how many rows the filter matches, read at once: `rows` is the
 * filtered query with what it selects, sorted by `sort` and then by id the same way (so pages never
 * repeat or skip a row). The total counts `rows` without its selection, or `counted` (the same
 * filter on the main table) where a join of `rows` would only add columns.
 */
export async function listPage<DB, TB extends keyof DB, O, CDB = DB, CTB extends keyof CDB = keyof CDB>(
  rows: SelectQueryBuilder<DB, TB, O>,
  sort: ListSort,
  page: ListPageRequest,
  counted?: SelectQueryBuilder<CDB, CTB, unknown>,
): Promise<{ rows: O[]; total: number }> {
  const by = typeof sort.by === 'string' ? sql.ref(sort.by) : sort.by;
  const [found, total] = await Promise.all([
    rows
      .orderBy(by, direction(sort))
      .orderBy(sql.ref(sort.id ?? 'id'), sort.order)
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    counted ? countOf(counted) : countOf(rows),
  ]);
  return { rows: found, total };
}
