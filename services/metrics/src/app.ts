import { createHttpApp, standardReadiness } from '@gpt/kit';
import type { MetricsDeps } from './deps';
import { statsRouter } from './http/stats.routes';

export function buildApp(deps: MetricsDeps) {
  return createHttpApp({
    name: 'metrics',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(statsRouter(deps));
    },
  });
}
