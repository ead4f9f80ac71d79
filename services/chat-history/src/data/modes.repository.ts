import { isUniqueViolation } from '@gpt/kit';
import type { AdminModesSortField, ChatMode, ChatModeInput } from '@gpt/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChatHistoryDatabase, ChatModesTable } from './schema';
import { tablePage, type TablePageRequest } from './table-page';

export type ChatModeFields = ChatModeInput;

const SEARCHED_COLUMNS = ['name', 'description', 'system_prompt'] as const;

function toMode(row: Selectable<ChatModesTable>): ChatMode {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

/** The chat modes; built around the database or a transaction. */
export function modesRepository(db: Kysely<ChatHistoryDatabase>) {
  /** Only one mode is the default: the one saved as default takes it from the others. */
  const clearOtherDefaults = (id: number) =>
    db
      .updateTable('chat_modes')
      .set({ is_default: false, updated_at: new Date() })
      .where('is_default', '=', true)
      .where('id', '!=', id)
      .execute();

  return {
    async list(
      page: TablePageRequest<AdminModesSortField>,
      search: string | undefined,
    ): Promise<{ modes: ChatMode[]; total: number }> {
      const { rows, total } = await tablePage(db, 'chat_modes', page, {
        columns: SEARCHED_COLUMNS,
        text: search,
      });
      return { modes: rows.map(toMode), total };
    },
    async listActive(): Promise<ChatMode[]> {
      const rows = await db
        .selectFrom('chat_modes')
        .selectAll()
        .where('is_active', '=', true)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
      return rows.map(toMode);
    },
    async findById(id: number): Promise<ChatMode | undefined> {
      const row = await db.selectFrom('chat_modes').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toMode(row);
    },
    /** Creates `modes` only when there is none at all (the first start); answers how many. */
    async insertIfNone(modes: ChatModeFields[]): Promise<number> {
      await sql`lock table chat_modes in share row exclusive mode`.execute(db);
      if (await db.selectFrom('chat_modes').select('id').limit(1).executeTakeFirst()) return 0;
      await db.insertInto('chat_modes').values(modes).execute();
      return modes.length;
    },
    /** Undefined when the name is taken. Call inside a transaction: it may take the default from another mode. */
    async create(fields: ChatModeFields): Promise<ChatMode | undefined> {
      const row = await db
        .insertInto('chat_modes')
        .values({ ...fields, is_default: false })
        .onConflict((oc) => oc.column('name').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row || !fields.is_default) return row && toMode(row);
      await clearOtherDefaults(row.id);
      return toMode(
        await db
          .updateTable('chat_modes')
          .set({ is_default: true })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    },
    /** Undefined when there is no such mode; 'duplicate' when another mode has the name. Call inside a transaction. */
    async update(id: number, fields: ChatModeFields): Promise<ChatMode | 'duplicate' | undefined> {
      if (fields.is_default) await clearOtherDefaults(id);
      try {
        const row = await db
          .updateTable('chat_modes')
          .set({ ...fields, updated_at: new Date() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row && toMode(row);
      } catch (err) {
        if (isUniqueViolation(err)) return 'duplicate';
        throw err;
      }
    },
    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('chat_modes').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
