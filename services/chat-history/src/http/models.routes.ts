import {
  AdminModelsQuery,
  AdminModelsResponse,
  AiModelInput,
  AiModelResponse,
  BotModelsResponse,
  ModelIdParams,
  SuccessResponse,
} from '@gpt/contracts';
import { requireAuth, requireBotKey, respond, sendAnswer, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ChatHistoryDeps } from '../deps';
import { keptAnswer } from '../domain/bot-reads';
import { modelsUseCases } from '../domain/models';

/** Admin CRUD of the AI models (docs/product.md, Calls). */
export function adminModelsRouter(deps: ChatHistoryDeps): Router {
  const models = modelsUseCases(deps);
  return Router()
    .use('/api/admin/models', requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }))
    .get('/api/admin/models', async (req, res) => {
      const query = validate(AdminModelsQuery, req.query);
      respond(res, AdminModelsResponse, await models.list(query));
    })
    .post('/api/admin/models', async (req, res) => {
      const fields = validate(AiModelInput, req.body);
      respond(res, AiModelResponse, { success: true, model: await models.create(fields) }, 201);
    })
    .put('/api/admin/models/:id', async (req, res) => {
      const { id } = validate(ModelIdParams, req.params);
      const fields = validate(AiModelInput, req.body);
      respond(res, AiModelResponse, { success: true, model: await models.update(id, fields) });
    })
    .delete('/api/admin/models/:id', async (req, res) => {
      const { id } = validate(ModelIdParams, req.params);
      await models.remove(id);
      respond(res, SuccessResponse, { success: true });
    });
}

/** The models the bot may offer: the active ones, kept in memory until a model or setting changes, with an ETag. */
export function botModelsRouter(deps: ChatHistoryDeps): Router {
  const models = modelsUseCases(deps);
  return Router().get('/api/bot/models', requireBotKey(deps.config.BOT_API_KEY), async (req, res) => {
    sendAnswer(
      req,
      res,
      await keptAnswer(deps, 'models', BotModelsResponse, async () => ({ models: await models.listActive() })),
    );
  });
}
