import {
  AdminTariffsQuery,
  AdminTariffsResponse,
  PublicTariffsResponse,
  TariffIdParams,
  TariffInput,
  TariffOptionsResponse,
  TariffResponse,
} from '@gpt/contracts';
import { requireAuth, validate } from '@gpt/kit';
import { Router } from 'express';
import type { BillingDeps } from '../deps';
import { tariffsRepository } from '../data/tariffs.repository';
import { createTariff, deleteTariff, updateTariff } from '../domain/manage-tariffs';

/** Public tariffs for the home and pricing pages. */
export function publicTariffsRouter(deps: BillingDeps): Router {
  const tariffs = tariffsRepository(deps.db);
  return Router().get('/api/tariffs', async (_req, res) => {
    res.json(PublicTariffsResponse.parse({ success: true, tariffs: await tariffs.listActive() }));
  });
}

/** The admin's tariffs screen (spec §7) with the server-side rules of spec §5. */
export function adminTariffsRouter(deps: BillingDeps): Router {
  const tariffs = tariffsRepository(deps.db);
  const router = Router();
  router.use('/api/admin/tariffs', requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }));

  router.get('/api/admin/tariffs/all', async (_req, res) => {
    res.json(TariffOptionsResponse.parse(await tariffs.options()));
  });
  router.get('/api/admin/tariffs', async (req, res) => {
    const query = validate(AdminTariffsQuery, req.query);
    res.json(AdminTariffsResponse.parse(await tariffs.page(query)));
  });
  router.post('/api/admin/tariffs', async (req, res) => {
    const input = validate(TariffInput, req.body);
    res.status(201).json(TariffResponse.parse({ success: true, tariff: await createTariff(deps, input) }));
  });
  router.put('/api/admin/tariffs/:id', async (req, res) => {
    const { id } = validate(TariffIdParams, req.params);
    const input = validate(TariffInput, req.body);
    res.json(TariffResponse.parse({ success: true, tariff: await updateTariff(deps, id, input) }));
  });
  router.delete('/api/admin/tariffs/:id', async (req, res) => {
    const { id } = validate(TariffIdParams, req.params);
    await deleteTariff(deps, id);
    res.json({ success: true, message: 'Тариф удален' });
  });
  return router;
}
