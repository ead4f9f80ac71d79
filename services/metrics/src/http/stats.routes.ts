import { AdminStats, StatsSeriesQuery, StatsSeriesResponse } from '@gpt/contracts';
import { requireAuth, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { MetricsDeps } from '../deps';
import { getAdminStats } from '../domain/get-admin-stats';
import { getStatsSeries } from '../domain/get-stats-series';

/** The admin dashboard's figures and its chart. */
export function statsRouter(deps: MetricsDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  return Router()
    .get('/api/admin/stats', admin, async (_req, res) => {
      respond(res, AdminStats, await getAdminStats(deps));
    })
    .get('/api/admin/stats/series', admin, async (req, res) => {
      const { days } = validate(StatsSeriesQuery, req.query);
      respond(res, StatsSeriesResponse, await getStatsSeries(deps, days));
    });
}
