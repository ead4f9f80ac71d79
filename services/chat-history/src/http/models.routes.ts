import { BotModelsResponse } from '@gpt/contracts';
import { answered, idempotencyStore, routeHandlers, sendAnswer } from '@gpt/kit';
import type { ChatHistoryDeps } from '../deps';
import { keptAnswer } from '../domain/bot-reads';
import { modelsUseCases } from '../domain/models';

/** Admin CRUD of the AI models (docs/product.md, Calls), and the models the bot may offer. */
export function modelsRoutes(deps: ChatHistoryDeps) {
  const models = modelsUseCases(deps);
  const idempotency = idempotencyStore({ ...deps, service: 'chat-history' });
  return routeHandlers('chat-history', {
    getAdminModels: ({ query }) => models.list(query),
    postAdminModels: { idempotency, handle: ({ body, action }) => models.create(body, action) },
    putAdminModelsById: { idempotency, handle: ({ params, body, action }) => models.update(params.id, body, action) },
    deleteAdminModelsById: { idempotency, handle: ({ params, action }) => models.remove(params.id, action) },
    // The active ones, kept in memory until a model or setting changes, with an ETag.
    getBotModels: async ({ req, res }) => {
      sendAnswer(
        req,
        res,
        await keptAnswer(deps, 'models', BotModelsResponse, async () => ({ models: await models.listActive() })),
      );
      return answered;
    },
  });
}
