import { serviceUnavailable } from '@gpt/kit';

/** The metrics service's refusals, each with the sentence a person reads. */
export const metricsErrors = {
  /** What the dashboard says when its figures cannot be read (docs/product.md, Errors). */
  statsUnavailable: () => serviceUnavailable('Ошибка получения статистики', 'stats_unavailable'),
};
