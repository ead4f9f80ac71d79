import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { MetricsConfig } from './config';
import { migrations } from './data/migrations';
import type { MetricsDatabase } from './data/schema';
import type { MetricsDeps } from './deps';
import { CpuSampler } from './host/cpu-sampler';
import { metricsConsumers } from './messaging/consumers';

/** CPU use is the busy share over the last this many ms. */
const CPU_WINDOW_MS = 2_000;

/** One sampler per process: the host is the same for every instance in it. */
const sharedCpuSampler = new CpuSampler(CPU_WINDOW_MS);

export interface MetricsServiceOptions {
  /** "Now" for the calendar periods (tests pin it to a chosen instant). */
  clock?: () => Date;
}

export function createMetricsService(
  options: MetricsServiceOptions = {},
): ServiceDefinition<MetricsConfig, MetricsDatabase, MetricsDeps> {
  const clock = options.clock ?? (() => new Date());
  return {
    name: 'metrics',
    migrations,
    wire: (base) => ({ ...base, clock, cpu: sharedCpuSampler }),
    consumers: metricsConsumers,
    buildApp,
    async onStart() {
      const release = sharedCpuSampler.hold();
      return async () => release();
    },
  };
}

export const metricsService = createMetricsService();
