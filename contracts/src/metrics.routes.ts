import { type ApiRoute, ok } from './api-route';
import { AdminStats, StatsSeriesQuery, StatsSeriesResponse } from './metrics';

/** The metrics service's `/api` routes, beside their schemas in `metrics.ts`; `routes.ts` puts every file's routes in one list (docs/architecture.md, Adding a route). */
export const metricsRoutes = [
  {
    id: 'getAdminStats',
    method: 'get',
    path: '/api/admin/stats',
    service: 'metrics',
    access: 'admin',
    summary: 'Показатели панели администратора',
    response: ok(AdminStats),
    errors: [503],
  },
  {
    id: 'getAdminStatsSeries',
    method: 'get',
    path: '/api/admin/stats/series',
    service: 'metrics',
    access: 'admin',
    summary: 'Показатели по дням для графика',
    query: StatsSeriesQuery,
    response: ok(StatsSeriesResponse),
  },
] as const satisfies readonly ApiRoute[];
