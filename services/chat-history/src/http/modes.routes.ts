import {
  AdminModesQuery,
  AdminModesResponse,
  BotModesResponse,
  ChatModeInput,
  ChatModeResponse,
  ModeIdParams,
  SuccessResponse,
} from '@gpt/contracts';
import { requireAuth, requireBotKey, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ChatHistoryDeps } from '../deps';
import { modesUseCases } from '../domain/modes';

/** Admin CRUD of the chat modes. */
export function adminModesRouter(deps: ChatHistoryDeps): Router {
  const modes = modesUseCases(deps.db, deps.logger);
  return Router()
    .use(
      '/api/admin/modes',
      requireAuth({
        secret: deps.config.JWT_SECRET,
        kv: deps.kv,
        role: 'admin',
      }),
    )
    .get('/api/admin/modes', async (req, res) => {
      respond(res, AdminModesResponse, await modes.list(validate(AdminModesQuery, req.query)));
    })
    .post('/api/admin/modes', async (req, res) => {
      const fields = validate(ChatModeInput, req.body);
      respond(res, ChatModeResponse, { success: true, mode: await modes.create(fields) }, 201);
    })
    .put('/api/admin/modes/:id', async (req, res) => {
      const { id } = validate(ModeIdParams, req.params);
      const fields = validate(ChatModeInput, req.body);
      respond(res, ChatModeResponse, {
        success: true,
        mode: await modes.update(id, fields),
      });
    })
    .delete('/api/admin/modes/:id', async (req, res) => {
      const { id } = validate(ModeIdParams, req.params);
      await modes.remove(id);
      respond(res, SuccessResponse, { success: true });
    });
}

/** The modes the bot offers in /mode: the active ones, in their order. */
export function botModesRouter(deps: ChatHistoryDeps): Router {
  const modes = modesUseCases(deps.db, deps.logger);
  return Router().get('/api/bot/modes', requireBotKey(deps.config.BOT_API_KEY), async (_req, res) => {
    respond(res, BotModesResponse, { modes: await modes.listActive() });
  });
}
