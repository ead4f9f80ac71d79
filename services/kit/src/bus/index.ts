export { createBus, DEFAULT_RETRY_DELAYS_MS, type Bus, type BusOptions } from './bus';
export { deadLetterQueueOf, retryQueueOf } from './amqp-transport';
export { createInProcessBroker, InProcessBroker, type DeadLetter } from './in-process-broker';
export { busMigrations, type BusTables } from './migrations';
export type { BusOccurrenceKind, Consumer, Envelope, EventOf, EventSchemaMap, EventTypeOf } from './types';
