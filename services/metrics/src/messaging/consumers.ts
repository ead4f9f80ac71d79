import type { Consumer, EventSchemas } from '@gpt/kit';
import { eventLogRepository } from '../data/event-log.repository';
import type { MetricsDatabase } from '../data/schema';
import { METRICS_EVENTS, projectEvent, type MetricsEvent, type MetricsEventType } from '../domain/project-event';

type MetricsConsumer = Consumer<MetricsDatabase, EventSchemas, MetricsEventType>;

/**
 * One consumer per event type, all alike: in the inbox's transaction, append the event to the
 * log (what a rebuild replays) and fold it into the projections.
 */
export function metricsConsumers(): MetricsConsumer[] {
  return METRICS_EVENTS.map((type): MetricsConsumer => ({
    event: type,
    async handle(trx, event) {
      await eventLogRepository(trx).append(event);
      await projectEvent(trx, event as MetricsEvent);
    },
  }));
}
