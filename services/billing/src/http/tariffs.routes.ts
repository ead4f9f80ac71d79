import {
  AdminTariffsQuery,
  AdminTariffsResponse,
  SuccessResponse,
  TariffIdParams,
  TariffInput,
  TariffOptionsResponse,
  TariffResponse,
} from '@gpt/contracts';
import { requireAuth, respond, sendAnswer, validate } from '@gpt/kit';
import { Router } from 'express';
import type { BillingDeps } from '../deps';
import { tariffsRepository } from '../data/tariffs.repository';
import { createTariff, deleteTariff, updateTariff } from '../domain/manage-tariffs';
import { publicTariffsAnswer } from '../domain/public-tariffs';

/** Public tariffs for the home and pricing pages and the bot's /buy, kept in memory until they change, with an ETag. */
export function publicTariffsRouter(deps: BillingDeps): Router {
  return Router().get('/api/tariffs', async (req, res) => {
    sendAnswer(req, res, await publicTariffsAnswer(deps));
  });
}

/** The admin's tariffs screen (docs/product.md, Calls) with the server-side rules of docs/product.md, Validation. */
export function adminTariffsRouter(deps: BillingDeps): Router {
  const tariffs = tariffsRepository(deps.db);
  const router = Router();
  router.use('/api/admin/tariffs', requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }));

  router.get('/api/admin/tariffs/all', async (_req, res) => {
    respond(res, TariffOptionsResponse, await tariffs.options());
  });
  router.get('/api/admin/tariffs', async (req, res) => {
    const query = validate(AdminTariffsQuery, req.query);
    respond(res, AdminTariffsResponse, await tariffs.page(query));
  });
  router.post('/api/admin/tariffs', async (req, res) => {
    const input = validate(TariffInput, req.body);
    respond(res, TariffResponse, { success: true, tariff: await createTariff(deps, input) }, 201);
  });
  router.put('/api/admin/tariffs/:id', async (req, res) => {
    const { id } = validate(TariffIdParams, req.params);
    const input = validate(TariffInput, req.body);
    respond(res, TariffResponse, { success: true, tariff: await updateTariff(deps, id, input) });
  });
  router.delete('/api/admin/tariffs/:id', async (req, res) => {
    const { id } = validate(TariffIdParams, req.params);
    await deleteTariff(deps, id);
    respond(res, SuccessResponse, { success: true, message: 'Тариф удален' });
  });
  return router;
}
