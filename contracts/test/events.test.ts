import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import {
  type EventData,
  EventEnvelope,
  eventSchemas,
  EventType,
  makeEnvelope,
  parseEvent,
  parseMessage,
} from '../src/index';

const balance: EventData<'credits.changed'> = {
  user_id: 7,
  credits: 70_000,
  included_credits: -15,
  tariff: { id: 2, name: 'Premium', monthly_price: '350.00', end_date: '2025-07-26T10:00:00.000Z' },
  held_credits: 1_200,
  money_deposited: '350.00',
  welcome_credits: 0,
  version: 3,
  reason: 'payment',
  reference: 'payment:5f0c',
  changed_at: '2025-06-26T10:00:00.000Z',
};

function envelope(overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    type: 'credits.changed',
    occurredAt: '2025-06-26T10:00:00.000Z',
    producer: 'billing',
    data: balance,
    ...overrides,
  };
}

describe('EventEnvelope', () => {
  test('when the type is unknown, then the envelope is refused', () => {
    const result = EventEnvelope.safeParse(envelope({ type: 'credits.exploded' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['type']);
  });

  test('when the id is not a uuid or occurredAt not ISO-8601, then the envelope is refused', () => {
    expect(EventEnvelope.safeParse(envelope({ id: '42' })).success).toBe(false);
    expect(EventEnvelope.safeParse(envelope({ occurredAt: '26.06.2025' })).success).toBe(false);
    expect(EventEnvelope.safeParse(envelope({ producer: 'someone' })).success).toBe(false);
  });

  test('when every event of docs/architecture.md is listed, then each has a schema', () => {
    const expected = [
      'user.registered',
      'user.confirmed',
      'user.updated',
      'user.deleted',
      'accounts.linked',
      'accounts.unlinked',
      'password_reset.requested',
      'credits.changed',
      'payment.succeeded',
      'payment.failed',
      'payment.canceled',
      'payment.refunded',
      'receipt_email.supplied',
      'message.recorded',
      'setting.changed',
      'referral.rewarded',
      'support.answered',
      'subscription.notice',
    ];
    expect([...EventType.options].sort()).toEqual([...expected].sort());
    expect(Object.keys(eventSchemas).sort()).toEqual([...expected].sort());
  });
});

describe('parseEvent', () => {
  test('when a balance snapshot has no welcome_credits (an older billing), then it reads as no grant', () => {
    const { welcome_credits: _absent, ...older } = balance;
    const event = parseEvent(envelope({ data: older }));
    expect(event.type === 'credits.changed' && event.data.welcome_credits).toBe(0);
  });

  test('when a setting was deleted, then setting.changed carries a null value', () => {
    const data = { key: 'footer_text', value: null, version: 7, changed_at: '2025-06-26T10:00:00.000Z' };
    const event = parseEvent(envelope({ type: 'setting.changed', producer: 'chat-history', data }));
    expect(event.data).toEqual(data);
  });

  test('when data matches the type, then the typed event comes back', () => {
    const event = parseEvent(envelope());
    expect(event.type).toBe('credits.changed');
    if (event.type === 'credits.changed') expect(event.data.tariff.monthly_price).toBe('350.00');
  });

  test('when a balance snapshot or a message comes from before holds, then it reads as nothing held and no hold', () => {
    const { held_credits: _held, ...beforeHolds } = balance;
    const event = parseEvent(envelope({ data: beforeHolds }));
    if (event.type === 'credits.changed') expect(event.data.held_credits).toBe(0);
    expect(() => parseEvent(envelope({ data: { ...balance, held_credits: -1 } }))).toThrow();
    const message = makeEnvelope(eventSchemas, 'chat-history', 'message.recorded', {
      message_id: 1,
      user_id: 7,
      telegram_id: null,
      username: null,
      model: 'gpt-4o-mini',
      status: 'success',
      input_tokens: 1,
      output_tokens: 1,
      input_cost: '0.000000150000',
      output_cost: '0.000000600000',
      total_cost: '0.000000750000',
      cost: 1,
      user_message: 'Привет',
      bot_response: 'Здравствуйте',
      error_message: null,
      image_path: null,
      created_at: '2025-06-26T10:00:00.000Z',
    });
    expect(message.data).toMatchObject({ hold_id: null, image_count: 0 });
  });

  test('when data does not match its type, then it throws (money as a float is refused)', () => {
    expect(() => parseEvent(envelope({ data: { ...balance, money_deposited: 350 } }))).toThrow();
    expect(() => parseEvent(envelope({ data: { ...balance, credits: 1.5 } }))).toThrow();
    expect(() => parseEvent(envelope({ type: 'user.deleted' }))).toThrow();
  });
});

describe('makeEnvelope and parseMessage', () => {
  const supplied = {
    user_id: 1,
    email: 'user@example.com',
    payment_id: 'p-1',
    supplied_at: '2025-06-26T10:00:00.000Z',
  };

  test('when an event is made, then it gets a uuid and a timestamp, its data is checked, and it reads back', () => {
    const event = makeEnvelope(eventSchemas, 'billing', 'receipt_email.supplied', supplied);
    expect(EventEnvelope.parse(event).type).toBe('receipt_email.supplied');
    expect(parseMessage(eventSchemas, JSON.stringify(event))).toEqual({ ok: true, envelope: event });
    expect(() => makeEnvelope(eventSchemas, 'chat-history', 'message.recorded', {})).toThrow();
    expect(() => makeEnvelope(eventSchemas, 'billing', 'feedback.lost', supplied)).toThrow(/no schema/);
  });

  test('when a message is not JSON, has a bad envelope, an unknown type or bad data, then it is poisoned and says why', () => {
    const good = makeEnvelope(eventSchemas, 'billing', 'receipt_email.supplied', supplied);
    const reasonOf = (body: string) => {
      const parsed = parseMessage(eventSchemas, body);
      return parsed.ok ? 'ok' : parsed.reason;
    };
    expect(reasonOf('{')).toBe('poisoned: the body is not JSON');
    expect(reasonOf(JSON.stringify({ ...good, id: '42' }))).toMatch(/^poisoned: bad envelope: id:/);
    expect(reasonOf(JSON.stringify({ ...good, type: 'feedback.lost' }))).toBe(
      'poisoned: unknown event type "feedback.lost"',
    );
    expect(reasonOf(JSON.stringify({ ...good, data: { ...supplied, user_id: 'x' } }))).toMatch(
      /^poisoned: bad data: user_id:/,
    );
  });
});
