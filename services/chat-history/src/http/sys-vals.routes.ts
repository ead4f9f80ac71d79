import {
  AdminSysValsQuery,
  AdminSysValsResponse,
  BotSettingsResponse,
  paginationOf,
  SysValCreateRequest,
  SuccessResponse,
  SysValKeyParams,
  SysValResponse,
  SysValUpdateRequest,
  WelcomeOfferResponse,
} from '@gpt/contracts';
import { requireAuth, requireBotKey, respond, sendAnswer, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ChatHistoryDeps } from '../deps';
import { keptAnswer } from '../domain/bot-reads';
import { settingsUseCases } from '../domain/settings';

/** Admin CRUD of the system key/value settings, by key (docs/product.md, Calls). */
export function adminSysValsRouter(deps: ChatHistoryDeps): Router {
  const settings = settingsUseCases(deps);
  return Router()
    .use('/api/admin/sys_vals', requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }))
    .get('/api/admin/sys_vals', async (req, res) => {
      const query = validate(AdminSysValsQuery, req.query);
      const { data, total } = await settings.list(query);
      respond(res, AdminSysValsResponse, { data, pagination: paginationOf(query.page, query.limit, total) });
    })
    .post('/api/admin/sys_vals', async (req, res) => {
      const { key, value } = validate(SysValCreateRequest, req.body);
      respond(res, SysValResponse, { success: true, data: await settings.create(key, value) }, 201);
    })
    .put('/api/admin/sys_vals/:key', async (req, res) => {
      const { key } = validate(SysValKeyParams, req.params);
      const { value } = validate(SysValUpdateRequest, req.body);
      respond(res, SysValResponse, { success: true, data: await settings.update(key, value) });
    })
    .delete('/api/admin/sys_vals/:key', async (req, res) => {
      const { key } = validate(SysValKeyParams, req.params);
      await settings.remove(key);
      respond(res, SuccessResponse, { success: true });
    });
}

/** Every setting for the bot, as key → value; kept in memory until a model or setting changes, with an ETag. */
export function botSettingsRouter(deps: ChatHistoryDeps): Router {
  const settings = settingsUseCases(deps);
  return Router().get('/api/bot/settings', requireBotKey(deps.config.BOT_API_KEY), async (req, res) => {
    sendAnswer(req, res, await keptAnswer(deps, 'settings', BotSettingsResponse, settings.all));
  });
}

/** Public: the welcome grant now and what a typical message costs, for "roughly how many messages" on the site; kept like the bot's reads. */
export function welcomeOfferRouter(deps: ChatHistoryDeps): Router {
  const settings = settingsUseCases(deps);
  return Router().get('/api/welcome_offer', async (req, res) => {
    sendAnswer(req, res, await keptAnswer(deps, 'welcome_offer', WelcomeOfferResponse, settings.welcomeOffer));
  });
}
