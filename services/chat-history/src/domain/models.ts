import type { AdminModelsQuery, AiModel } from '@gpt/contracts';
import { conflict, notFound } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { type AiModelFields, modelsRepository } from '../data/models.repository';
import type { ChatHistoryDatabase } from '../data/schema';

const modelExists = (name: string) => conflict(`Модель ${name} уже существует`, 'model_exists');
const modelNotFound = () => notFound('Модель не найдена', 'model_not_found');

export function modelsUseCases(db: Kysely<ChatHistoryDatabase>) {
  const models = modelsRepository(db);
  return {
    list(query: AdminModelsQuery) {
      return models.list({ ...query, offset: (query.page - 1) * query.limit });
    },

    listActive: () => models.listActive(),

    async create(fields: AiModelFields): Promise<AiModel> {
      const created = await models.create(fields);
      if (!created) throw modelExists(fields.model);
      return created;
    },

    async update(id: number, fields: AiModelFields): Promise<AiModel> {
      const updated = await models.update(id, fields);
      if (updated === 'duplicate') throw modelExists(fields.model);
      if (!updated) throw modelNotFound();
      return updated;
    },

    async remove(id: number): Promise<void> {
      if (!(await models.delete(id))) throw modelNotFound();
    },
  };
}
