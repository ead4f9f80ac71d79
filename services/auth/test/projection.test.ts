import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { publishRaw } from '@gpt/kit/testing';
import { usersRepository } from '../src/data/users.repository';
import {
  type AuthHarness,
  PREMIUM_TARIFF,
  publishEvent,
  reportBalance,
  reportMessage,
  startAuth,
} from './support/auth-harness';

let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.stop());

const exchange = () => h.auth.deps.config.AMQP_EXCHANGE;

describe('credits.changed → profile and admin list', () => {
  test('then the profile shows the balance and tariff billing reported', async () => {
    const user = await h.buildUser();
    await reportBalance(h, user.id, {
      credits: 1234,
      included_credits: 70000,
      tariff: PREMIUM_TARIFF,
      money_deposited: '350.00',
      version: 1,
    });
    const profile = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(profile.body).toMatchObject({
      tariff_id: PREMIUM_TARIFF.id,
      tariff_name: 'Premium',
      credits: 1234,
      included_credits: 70000,
      monthly_price: '350.00',
      tariff_end_date: PREMIUM_TARIFF.end_date,
    });
  });

  test('when the bot holds credits, then the profile shows them held and the rest available', async () => {
    const user = await h.buildUser();
    await reportBalance(h, user.id, { credits: 1000, included_credits: 200, held_credits: 450, version: 1 });
    const profile = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(profile.body).toMatchObject({
      credits: 1000,
      included_credits: 200,
      held_credits: 450,
      available_credits: 750,
    });

    await reportBalance(h, user.id, { credits: 1000, included_credits: 200, held_credits: 0, version: 2 });
    const released = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(released.body).toMatchObject({ held_credits: 0, available_credits: 1200 });
  });

  test('when an older version arrives after a newer one, then it is ignored', async () => {
    const user = await h.buildUser();
    await reportBalance(h, user.id, { credits: 300, version: 3 });
    await reportBalance(h, user.id, { credits: 200, version: 2 });
    await reportBalance(h, user.id, { credits: 999, version: 3 });
    const stored = await usersRepository(h.auth.deps.db).findById(user.id);
    expect(stored?.balance.credits).toBe(300);
    await reportBalance(h, user.id, { credits: 400, version: 4 });
    expect((await usersRepository(h.auth.deps.db).findById(user.id))?.balance.credits).toBe(400);
  });

  test('when the user is unknown (deleted meanwhile), then the event is acknowledged with no effect', async () => {
    const event = await reportBalance(h, 99_999_999, { credits: 5, version: 1 });
    expect(event.type).toBe('credits.changed');
  });

  test('when the message is poisoned, then it goes to the dead letters', async () => {
    const raw = {
      id: crypto.randomUUID(),
      type: 'credits.changed',
      occurredAt: new Date().toISOString(),
      producer: 'billing',
      data: { user_id: 'x' },
    };
    await publishRaw(exchange(), 'credits.changed', raw);
    const dead = await h.auth.deps.bus.waitFor('dead-lettered', (e) => e.id === raw.id);
    expect(dead.type).toBe('credits.changed');
  });
});

describe('message.recorded → messages_count and money_spent', () => {
  test('then each message counts once and adds its exact dollar cost', async () => {
    const user = await h.buildUser();
    await reportMessage(h, user.id, '0.000150');
    await reportMessage(h, user.id, '1.123456789012');
    const stored = await usersRepository(h.auth.deps.db).findById(user.id);
    expect(stored?.usage).toEqual({ messagesCount: 2, moneySpent: '1.123606789012' });
  });

  test('when the same event is delivered twice, then it counts once', async () => {
    const user = await h.buildUser();
    const first = await reportMessage(h, user.id, '0.010000');
    await publishEvent(exchange(), 'message.recorded', first.data, { id: first.id });
    await h.auth.deps.bus.waitFor('acked', (e) => e.id === first.id);
    const stored = await usersRepository(h.auth.deps.db).findById(user.id);
    expect(stored?.usage).toEqual({ messagesCount: 1, moneySpent: '0.010000' });
  });

  test('when the handler fails, then the event is retried and nothing half-applied stays', async () => {
    const user = await h.buildUser();
    const template = await reportMessage(h, user.id, '0.000001');
    // More dollars than the column holds: the update fails and rolls back with the inbox row.
    const failing = await publishEvent(exchange(), 'message.recorded', {
      ...template.data,
      total_cost: '1000000000000.000000',
    });
    await h.auth.deps.bus.waitFor('retried', (e) => e.id === failing.id);
    const stored = await usersRepository(h.auth.deps.db).findById(user.id);
    expect(stored?.usage.messagesCount).toBe(1);
  });
});
