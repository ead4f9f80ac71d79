import { createHttpApp, standardReadiness, type ServiceDeps } from '@gpt/kit';
import type { MetricsConfig } from './config';
import type { MetricsDatabase } from './data/schema';
import type { CpuSampler } from './host/cpu-sampler';
import { statsRouter } from './http/stats.routes';

export type MetricsDeps = ServiceDeps<MetricsConfig, MetricsDatabase> & {
  /** "Now", for the calendar periods. */
  clock: () => Date;
  cpu: CpuSampler;
};

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
