import {
  type AppEvent,
  eventSchemas,
  type EventInput,
  type EventType,
  makeEnvelope,
  type ServiceName,
} from '@gpt/contracts';

export { eventProducers } from '@gpt/contracts';

/** A checked envelope of event `type`, as the bus of `producer` publishes it (a new uuid and now, unless given). */
export function createEvent<T extends EventType>(
  type: T,
  producer: ServiceName,
  data: EventInput<T>,
  options: { id?: string; occurredAt?: string } = {},
): AppEvent<T> {
  return makeEnvelope(eventSchemas, producer, type, data, options) as AppEvent<T>;
}

/** `user.registered` of a web sign-up as auth publishes it; `overrides` for anything else. */
export function sampleUserRegistered(
  userId: number,
  overrides: Partial<EventInput<'user.registered'>> = {},
): EventInput<'user.registered'> {
  return {
    user_id: userId,
    email: `user${userId}@example.com`,
    role: 'user',
    username: null,
    first_name: null,
    last_name: null,
    telegram_id: null,
    telegram_username: null,
    telegram_email: null,
    utm_source: null,
    created_at: new Date().toISOString(),
    version: 0,
    source: 'web',
    ...overrides,
  };
}

/**
 * `subscription.notice` as billing publishes it: a reminder of a card subscription of Premium (350 ₽, «•••• 4444»)
 * charged on 26 December 2026; `overrides` for anything else.
 */
export function sampleSubscriptionNotice(
  userId: number,
  overrides: Partial<EventInput<'subscription.notice'>> = {},
): EventInput<'subscription.notice'> {
  return {
    notice_id: `notice-${userId}-${overrides.kind ?? 'reminder'}`,
    kind: 'reminder',
    subscription_id: 5,
    user_id: userId,
    method: 'card',
    tariff_name: 'Premium',
    amount: '350.00',
    star_amount: null,
    paid_until: '2026-12-27T09:00:00.000Z',
    charge_at: '2026-12-26T09:00:00.000Z',
    reason: null,
    card: '•••• 4444',
    cancel_url: 'https://site.example/dashboard',
    at: new Date().toISOString(),
    ...overrides,
  };
}

/** `message.recorded` as chat-history publishes it: an answered gpt-4o-mini message; `overrides` for anything else. */
export function sampleMessageRecorded(
  messageId: number,
  userId: number,
  overrides: Partial<EventInput<'message.recorded'>> = {},
): EventInput<'message.recorded'> {
  return {
    message_id: messageId,
    user_id: userId,
    telegram_id: null,
    username: null,
    model: 'gpt-4o-mini',
    status: 'success',
    input_tokens: 100,
    output_tokens: 200,
    input_cost: '0.000015',
    output_cost: '0.000120',
    total_cost: '0.000135',
    cost: 27,
    user_message: 'Привет',
    bot_response: 'Здравствуйте',
    error_message: null,
    image_path: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}
