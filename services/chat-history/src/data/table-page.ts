import type { SortDirection } from '@gpt/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ChatHistoryDatabase } from './schema';

/** The admin tables listed whole, a page at a time. */
type ListedTable = 'ai_models' | 'sys_vals';

export interface TablePageRequest<F extends string> {
  offset: number;
  limit: number;
  sortField: F;
  sortOrder: SortDirection;
}

/** One page of a table sorted by a column (ties broken by id, the same way) and the table's row count. */
export async function tablePage<T extends ListedTable>(
  db: Kysely<ChatHistoryDatabase>,
  table: T,
  page: TablePageRequest<string>,
): Promise<{ rows: Selectable<ChatHistoryDatabase[T]>[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom(table as ListedTable)
      .selectAll()
      .orderBy(sql.ref(page.sortField), page.sortOrder)
      .orderBy('id', page.sortOrder)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom(table as ListedTable)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Selectable<ChatHistoryDatabase[T]>[], total: Number(count.total) };
}
