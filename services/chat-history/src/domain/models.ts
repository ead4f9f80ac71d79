import type { AdminModelsQuery, AiModelResponse, SuccessResponse } from '@gpt/contracts';
import type { AdminAction } from '@gpt/kit';
import type { ChatHistoryDeps } from '../deps';
import { type AiModelFields, modelsRepository } from '../data/models.repository';
import { chatHistoryErrors } from './errors';

/** The models a new installation starts with; the admin edits them on /admin/models. */
export const DEFAULT_MODELS: AiModelFields[] = [
  {
    model: 'gpt-4o-mini',
    description: 'Быстрая и недорогая модель',
    input_price_per_1m: '0.150000',
    output_price_per_1m: '0.600000',
    image_price: null,
    transcription_price_per_minute: null,
    speech_price_per_1k_chars: null,
    is_active: true,
  },
  {
    model: 'gpt-4o',
    description: 'Умная модель для сложных задач',
    input_price_per_1m: '2.500000',
    output_price_per_1m: '10.000000',
    image_price: null,
    transcription_price_per_minute: null,
    speech_price_per_1k_chars: null,
    is_active: true,
  },
  {
    model: 'gpt-image-1',
    description: 'Генерация изображений',
    input_price_per_1m: '0.000000',
    output_price_per_1m: '0.000000',
    image_price: '0.040000',
    transcription_price_per_minute: null,
    speech_price_per_1k_chars: null,
    is_active: true,
  },
  {
    model: 'whisper-1',
    description: 'Распознавание голосовых сообщений',
    input_price_per_1m: '0.000000',
    output_price_per_1m: '0.000000',
    image_price: null,
    transcription_price_per_minute: '0.006000',
    speech_price_per_1k_chars: null,
    is_active: true,
  },
  {
    model: 'tts-1',
    description: 'Озвучивание ответов',
    input_price_per_1m: '0.000000',
    output_price_per_1m: '0.000000',
    image_price: null,
    transcription_price_per_minute: null,
    speech_price_per_1k_chars: '0.015000',
    is_active: true,
  },
];

/** Every write here changes what the bot and the site read (deps.botReads): each drops those answers when it ends. */
export function modelsUseCases(deps: ChatHistoryDeps) {
  const models = modelsRepository(deps.db);
  const { changing } = deps.botReads;
  return {
    /** On the first start (no model at all) the default models are created; later starts change nothing. */
    seed: () =>
      changing(async () => {
        const created = await models.insertIfNone(DEFAULT_MODELS);
        if (created > 0) deps.logger.info({ created }, 'default models created');
      }),

    list(query: AdminModelsQuery) {
      return models.list(query);
    },

    listActive: () => models.listActive(),

    create: (fields: AiModelFields, action: AdminAction): Promise<AiModelResponse> =>
      changing(() =>
        deps.db.transaction().execute(async (trx) => {
          const created = await modelsRepository(trx).create(fields);
          if (!created) throw chatHistoryErrors.modelExists(fields.model);
          const record = { action: 'model.create', target: { type: 'model', id: created.id }, after: created };
          return action.finish(trx, record, { success: true, model: created });
        }),
      ),

    update: (id: number, fields: AiModelFields, action: AdminAction): Promise<AiModelResponse> =>
      changing(() =>
        deps.db.transaction().execute(async (trx) => {
          const before = await modelsRepository(trx).findById(id);
          const updated = await modelsRepository(trx).update(id, fields);
          if (updated === 'duplicate') throw chatHistoryErrors.modelExists(fields.model);
          if (!updated) throw chatHistoryErrors.modelNotFound();
          const record = { action: 'model.update', target: { type: 'model', id }, before, after: updated };
          return action.finish(trx, record, { success: true, model: updated });
        }),
      ),

    remove: (id: number, action: AdminAction): Promise<SuccessResponse> =>
      changing(() =>
        deps.db.transaction().execute(async (trx) => {
          const before = await modelsRepository(trx).findById(id);
          if (!(await modelsRepository(trx).delete(id))) throw chatHistoryErrors.modelNotFound();
          return action.finish(
            trx,
            { action: 'model.delete', target: { type: 'model', id }, before },
            { success: true },
          );
        }),
      ),
  };
}
