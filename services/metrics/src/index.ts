export { loadMetricsConfig } from './config';
export { createMetricsService, metricsService } from './service';
