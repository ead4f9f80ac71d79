import { answered, idempotencyStore, routeHandlers, sendAnswer } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { tariffsRepository } from '../data/tariffs.repository';
import { createTariff, deleteTariff, updateTariff } from '../domain/manage-tariffs';
import { publicTariffsAnswer } from '../domain/public-tariffs';

/**
 * Public tariffs for the home and pricing pages and the bot's /buy, kept in memory until they change, with
 * an ETag; the admin's tariffs screen (docs/product.md, Calls) with the server-side rules of docs/product.md, Validation.
 */
export function tariffsRoutes(deps: BillingDeps) {
  const tariffs = tariffsRepository(deps.db);
  const idempotency = idempotencyStore({ ...deps, service: 'billing' });
  return routeHandlers('billing', {
    getTariffs: async ({ req, res }) => {
      sendAnswer(req, res, await publicTariffsAnswer(deps));
      return answered;
    },
    getAdminTariffsAll: () => tariffs.options(),
    getAdminTariffs: ({ query }) => tariffs.page(query),
    postAdminTariffs: {
      idempotency,
      handle: ({ body, action }) => createTariff(deps, body, action),
    },
    putAdminTariffsById: {
      idempotency,
      handle: ({ params, body, action }) => updateTariff(deps, params.id, body, action),
    },
    deleteAdminTariffsById: {
      idempotency,
      handle: ({ params, action }) => deleteTariff(deps, params.id, action),
    },
  });
}
