import { BotSettingsResponse, paginationOf, WelcomeOfferResponse } from '@gpt/contracts';
import { answered, idempotencyStore, routeHandlers, sendAnswer } from '@gpt/kit';
import type { ChatHistoryDeps } from '../deps';
import { keptAnswer } from '../domain/bot-reads';
import { settingsUseCases } from '../domain/settings';

/**
 * Admin CRUD of the system key/value settings, by key (docs/product.md, Calls); every setting for the bot
 * as key → value; the public welcome offer (the welcome grant now and what a typical message costs, for
 * "roughly how many messages" on the site). The bot's and the public reads are kept in memory until a
 * model or setting changes, with an ETag.
 */
export function sysValsRoutes(deps: ChatHistoryDeps) {
  const settings = settingsUseCases(deps);
  const idempotency = idempotencyStore({ ...deps, service: 'chat-history' });
  return routeHandlers('chat-history', {
    getAdminSysVals: async ({ query }) => {
      const { data, total } = await settings.list(query);
      return { data, pagination: paginationOf(query.page, query.limit, total) };
    },
    postAdminSysVals: { idempotency, handle: ({ body, action }) => settings.create(body.key, body.value, action) },
    putAdminSysValsByKey: {
      idempotency,
      handle: ({ params, body, action }) => settings.update(params.key, body.value, action),
    },
    deleteAdminSysValsByKey: { idempotency, handle: ({ params, action }) => settings.remove(params.key, action) },
    getBotSettings: async ({ req, res }) => {
      sendAnswer(req, res, await keptAnswer(deps, 'settings', BotSettingsResponse, settings.all));
      return answered;
    },
    getWelcomeOffer: async ({ req, res }) => {
      sendAnswer(req, res, await keptAnswer(deps, 'welcome_offer', WelcomeOfferResponse, settings.welcomeOffer));
      return answered;
    },
  });
}
