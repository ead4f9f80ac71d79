import { answered, contractRouter } from '@gpt/kit';
import type { Router } from 'express';
import type { MetricsDeps } from '../deps';
import { auditLog } from '../domain/audit-log';
import { getAdminStats } from '../domain/get-admin-stats';
import { getStatsSeries } from '../domain/get-stats-series';

/** The admin dashboard's figures and its chart; «Журнал действий» of every audited service. */
export function statsRouter(deps: MetricsDeps): Router {
  return contractRouter(
    'metrics',
    { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv },
    {
      getAdminStats: () => getAdminStats(deps),
      getAdminStatsSeries: ({ query }) => getStatsSeries(deps, query.days),
      getAdminAudit: ({ query, req }) => auditLog(deps.config, req.headers.authorization).page(query),
      getAdminAuditVerify: ({ req }) => auditLog(deps.config, req.headers.authorization).verify(),
      getAdminAuditExport: async ({ query, req, res }) => {
        const csv = await auditLog(deps.config, req.headers.authorization).csv(query);
        const day = new Date().toISOString().slice(0, 10);
        res
          .status(200)
          .type('text/csv; charset=utf-8')
          .set('Content-Disposition', `attachment; filename="audit-${day}.csv"`)
          .set('Cache-Control', 'no-store')
          .send(csv);
        return answered;
      },
    },
  );
}
