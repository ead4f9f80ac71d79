import { contractRouter } from '@gpt/kit';
import type { Router } from 'express';
import type { MetricsDeps } from '../deps';
import { getAdminStats } from '../domain/get-admin-stats';
import { getStatsSeries } from '../domain/get-stats-series';

/** The admin dashboard's figures and its chart. */
export function statsRouter(deps: MetricsDeps): Router {
  return contractRouter(
    'metrics',
    { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv },
    {
      getAdminStats: () => getAdminStats(deps),
      getAdminStatsSeries: ({ query }) => getStatsSeries(deps, query.days),
    },
  );
}
