import type { EventInput } from '@gpt/contracts';
import { sampleMessageRecorded } from '@gpt/kit/testing';

let nextMessageId = 1;

/** A `message.recorded` event as chat-history publishes it: a message of `cost` credits, with a new id unless given. */
export function recordedMessage(
  userId: number,
  cost: number,
  overrides: Partial<EventInput<'message.recorded'>> = {},
): EventInput<'message.recorded'> {
  return sampleMessageRecorded(nextMessageId++, userId, { cost, ...overrides });
}
