import type { SortDirection } from '@gpt/contracts';
import { containsPattern, listPage, type ListPageRequest } from '@gpt/kit';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ChatHistoryDatabase } from './schema';

/** The admin tables listed whole, a page at a time. */
type ListedTable = 'ai_models' | 'sys_vals' | 'chat_modes';

export interface TablePageRequest<F extends string> extends ListPageRequest {
  sortField: F;
  sortOrder: SortDirection;
}

/** Only the rows with `text` in any of `columns`, any case. */
export interface TableSearch {
  columns: readonly string[];
  text: string | undefined;
}

function searchCondition(search: TableSearch | undefined) {
  if (!search?.text) return sql<boolean>`true`;
  const pattern = containsPattern(search.text);
  return sql<boolean>`(${sql.join(
    search.columns.map((column) => sql`${sql.ref(column)} ilike ${pattern}`),
    sql` or `,
  )})`;
}

/**
 * One page of a table sorted by a column (ties broken by id, the same way) and the count of its rows
 * (those matching `search`, when given).
 */
export async function tablePage<T extends ListedTable>(
  db: Kysely<ChatHistoryDatabase>,
  table: T,
  page: TablePageRequest<string>,
  search?: TableSearch,
): Promise<{ rows: Selectable<ChatHistoryDatabase[T]>[]; total: number }> {
  const { rows, total } = await listPage(
    db
      .selectFrom(table as ListedTable)
      .selectAll()
      .where(searchCondition(search)),
    { by: page.sortField, order: page.sortOrder },
    page,
  );
  return { rows: rows as Selectable<ChatHistoryDatabase[T]>[], total };
}
