import type { EventInput } from '@gpt/contracts';

let nextMessageId = 1;

/** A `message.recorded` event as chat-history publishes it: a message of `cost` credits, with a new id unless given. */
export function recordedMessage(
  userId: number,
  cost: number,
  overrides: Partial<EventInput<'message.recorded'>> = {},
): EventInput<'message.recorded'> {
  return {
    message_id: nextMessageId++,
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
    cost,
    user_message: 'Привет',
    bot_response: 'Здравствуйте',
    error_message: null,
    image_path: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}
