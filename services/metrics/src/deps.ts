import type { ServiceDeps } from '@gpt/kit';
import type { MetricsConfig } from './config';
import type { MetricsDatabase } from './data/schema';
import type { CpuSampler } from './host/cpu-sampler';

export type MetricsDeps = ServiceDeps<MetricsConfig, MetricsDatabase> & {
  /** "Now", for the calendar periods. */
  clock: () => Date;
  cpu: CpuSampler;
};
