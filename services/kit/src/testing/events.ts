import {
  type AppEvent,
  eventSchemas,
  type EventInput,
  type EventType,
  makeEnvelope,
  type ServiceName,
} from '@gpt/contracts';

/** The service that publishes each event type: whom a test stands in for when it publishes one. */
export const eventProducers: Record<EventType, ServiceName> = {
  'user.registered': 'auth',
  'user.updated': 'auth',
  'user.deleted': 'auth',
  'accounts.linked': 'auth',
  'password_reset.requested': 'auth',
  'credits.changed': 'billing',
  'payment.succeeded': 'billing',
  'payment.failed': 'billing',
  'payment.canceled': 'billing',
  'receipt_email.supplied': 'billing',
  'message.recorded': 'chat-history',
  'setting.changed': 'chat-history',
};

/** A checked envelope of event `type`, as the bus of `producer` publishes it (a new uuid and now, unless given). */
export function createEvent<T extends EventType>(
  type: T,
  producer: ServiceName,
  data: EventInput<T>,
  options: { id?: string; occurredAt?: string } = {},
): AppEvent<T> {
  return makeEnvelope(eventSchemas, producer, type, data, options) as AppEvent<T>;
}
