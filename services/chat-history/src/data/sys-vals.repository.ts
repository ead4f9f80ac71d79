import type { AdminSysValsSortField, SysVal } from '@gpt/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChatHistoryDatabase, SysValsTable } from './schema';
import { tablePage, type TablePageRequest } from './table-page';

function toSysVal(row: Selectable<SysValsTable>): SysVal {
  const { version: _version, ...fields } = row;
  return { ...fields, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

/** A setting as it is after a change, with the change's version. */
export interface SettingChange {
  key: string;
  value: string | null;
  version: number;
}

const toChange = (row: { key: string; value: string | null; version: string }): SettingChange => ({
  key: row.key,
  value: row.value,
  version: Number(row.version),
});

const nextVersion = sql<string>`nextval('sys_vals_version')`;

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
    /** A setting's value now, locked until the transaction ends; undefined when there is no such key. */
    async valueForUpdate(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('sys_vals').select('value').where('key', '=', key).forUpdate().executeTakeFirst();
      return row?.value;
    },
    /** Undefined when the key is taken. */
    async create(key: string, value: string): Promise<{ setting: SysVal; change: SettingChange } | undefined> {
      const row = await db
        .insertInto('sys_vals')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && { setting: toSysVal(row), change: toChange(row) };
    },
    /** Creates the settings whose keys are missing; existing values are the admin's and stay. */
    async insertMissing(values: Record<string, string>): Promise<SettingChange[]> {
      const rows = await db
        .insertInto('sys_vals')
        .values(Object.entries(values).map(([key, value]) => ({ key, value })))
        .onConflict((oc) => oc.column('key').doNothing())
        .returning(['key', 'value', 'version'])
        .execute();
      return rows.map(toChange);
    },
    async update(key: string, value: string): Promise<{ setting: SysVal; change: SettingChange } | undefined> {
      const row = await db
        .updateTable('sys_vals')
        .set({ value, updated_at: new Date(), version: nextVersion })
        .where('key', '=', key)
        .returningAll()
        .executeTakeFirst();
      return row && { setting: toSysVal(row), change: toChange(row) };
    },
    /** Undefined when there was no such setting. */
    async delete(key: string): Promise<SettingChange | undefined> {
      const row = await db
        .deleteFrom('sys_vals')
        .where('key', '=', key)
        .returning(['key', nextVersion.as('version')])
        .executeTakeFirst();
      return row && toChange({ ...row, value: null });
    },
  };
}
