import type { AdminSysValsSortField, SysVal } from '@gpt/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ChatHistoryDatabase, SysValsTable } from './schema';
import { tablePage, type TablePageRequest } from './table-page';

function toSysVal(row: Selectable<SysValsTable>): SysVal {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

export function sysValsRepository(db: Kysely<ChatHistoryDatabase>) {
  return {
    async list(page: TablePageRequest<AdminSysValsSortField>): Promise<{ data: SysVal[]; total: number }> {
      const { rows, total } = await tablePage(db, 'sys_vals', page);
      return { data: rows.map(toSysVal), total };
    },
    /** Every setting as key → value. */
    async all(): Promise<Record<string, string>> {
      const rows = await db.selectFrom('sys_vals').select(['key', 'value']).orderBy('key').execute();
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    },
    /** Undefined when the key is taken. */
    async create(key: string, value: string): Promise<SysVal | undefined> {
      const row = await db
        .insertInto('sys_vals')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && toSysVal(row);
    },
    /** Creates the settings whose keys are missing; existing values are the admin's and stay. */
    async insertMissing(values: Record<string, string>): Promise<number> {
      const rows = await db
        .insertInto('sys_vals')
        .values(Object.entries(values).map(([key, value]) => ({ key, value })))
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('id')
        .execute();
      return rows.length;
    },
    async update(key: string, value: string): Promise<SysVal | undefined> {
      const row = await db
        .updateTable('sys_vals')
        .set({ value, updated_at: new Date() })
        .where('key', '=', key)
        .returningAll()
        .executeTakeFirst();
      return row && toSysVal(row);
    },
    async delete(key: string): Promise<boolean> {
      const result = await db.deleteFrom('sys_vals').where('key', '=', key).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
