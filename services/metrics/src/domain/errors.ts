import { badRequest, serviceUnavailable } from '@gpt/kit';

/** The metrics service's refusals, each with the sentence a person reads. */
export const metricsErrors = {
  /** What the dashboard says when its figures cannot be read (docs/product.md, Errors). */
  statsUnavailable: () => serviceUnavailable('Ошибка получения статистики', 'stats_unavailable'),
  auditUnavailable: (service: string) =>
    serviceUnavailable(`Журнал действий недоступен: сервис ${service} не ответил`, 'audit_unavailable'),
  auditPageTooFar: (window: number) =>
    badRequest(`Журнал показывает не дальше ${window} записей: уточните фильтры`, 'audit_page_too_far'),
};
