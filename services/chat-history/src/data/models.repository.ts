import { isUniqueViolation } from '@gpt/kit';
import type { AdminModelsSortField, AiModel } from '@gpt/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AiModelsTable, ChatHistoryDatabase } from './schema';
import { tablePage, type TablePageRequest } from './table-page';

export type AiModelFields = Pick<
  AiModel,
  | 'model'
  | 'description'
  | 'input_price_per_1m'
  | 'output_price_per_1m'
  | 'image_price'
  | 'transcription_price_per_minute'
  | 'speech_price_per_1k_chars'
  | 'is_active'
>;

function toModel(row: Selectable<AiModelsTable>): AiModel {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

export function modelsRepository(db: Kysely<ChatHistoryDatabase>) {
  return {
    async list(page: TablePageRequest<AdminModelsSortField>): Promise<{ models: AiModel[]; total: number }> {
      const { rows, total } = await tablePage(db, 'ai_models', page);
      return { models: rows.map(toModel), total };
    },
    async listActive(): Promise<AiModel[]> {
      const rows = await db
        .selectFrom('ai_models')
        .selectAll()
        .where('is_active', '=', true)
        .orderBy('model')
        .execute();
      return rows.map(toModel);
    },
    async findByName(model: string): Promise<AiModel | undefined> {
      const row = await db.selectFrom('ai_models').selectAll().where('model', '=', model).executeTakeFirst();
      return row && toModel(row);
    },
    async findById(id: number): Promise<AiModel | undefined> {
      const row = await db.selectFrom('ai_models').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toModel(row);
    },
    /**
     * Creates `models` only when there is no model at all (the first start); answers how many. The
     * table lock makes replicas starting together seed once.
     */
    async insertIfNone(models: AiModelFields[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await sql`lock table ai_models in share row exclusive mode`.execute(trx);
        if (await trx.selectFrom('ai_models').select('id').limit(1).executeTakeFirst()) return 0;
        await trx.insertInto('ai_models').values(models).execute();
        return models.length;
      });
    },
    /** Undefined when the name is taken. */
    async create(fields: AiModelFields): Promise<AiModel | undefined> {
      const row = await db
        .insertInto('ai_models')
        .values(fields)
        .onConflict((oc) => oc.column('model').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && toModel(row);
    },
    /** Undefined when there is no such model; 'duplicate' when another model has the name. */
    async update(id: number, fields: AiModelFields): Promise<AiModel | 'duplicate' | undefined> {
      try {
        const row = await db
          .updateTable('ai_models')
          .set({ ...fields, updated_at: new Date() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row && toModel(row);
      } catch (err) {
        if (isUniqueViolation(err)) return 'duplicate';
        throw err;
      }
    },
    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('ai_models').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
