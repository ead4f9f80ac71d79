import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { recordedMessage as message } from './support/events';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
/** Ids no other test here uses. */
let nextId = 1;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());

const ledgerOf = (userId: number) =>
  h.billing.deps.db
    .selectFrom('ledger_entries')
    .select(['reference', 'bucket', 'amount', 'balance_after', 'reason', 'admin_id'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

/** The admin's deposit and/or tariff change, as auth calls it. */
function adjust(userId: number, body: Record<string, unknown>, adminId = 7) {
  return h.call<Record<string, unknown>>('POST', `/internal/users/${userId}/adjustments`, {
    token: h.adminToken(adminId),
    body: { user_id: userId, admin_id: adminId, action_id: randomUUID(), ...body },
  });
}

describe('a user billing has not seen', () => {
  test('when auth registers a user, then it starts on Base with 0 credits and credits.changed (initial) is published', async () => {
    const userId = await h.registerUser();
    const initial = await h.publishedChange(userId, 'initial');
    expect(initial).toMatchObject({
      user_id: userId,
      credits: 0,
      included_credits: 0,
      money_deposited: '0.00',
      tariff: { name: 'Base', monthly_price: '0.00', end_date: null },
      version: 1,
      reference: `initial:${userId}`,
    });
    expect(await h.balance(userId)).toMatchObject({ credits: 0, included_credits: 0, version: 1 });
  });

  test('when user.updated arrives for a known user, then no second initial balance is announced', async () => {
    const userId = await h.registerUser();
    await h.publishedChange(userId, 'initial');
    await h.deliver('user.updated', {
      user_id: userId,
      email: 'renamed@example.com',
      role: 'user',
      username: 'renamed',
      first_name: null,
      last_name: null,
      telegram_id: null,
      telegram_username: null,
      telegram_email: 'receipts@example.com',
      utm_source: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      version: 1,
    });
    const user = await h.billing.deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    expect(user).toMatchObject({ username: 'renamed', telegram_email: 'receipts@example.com', version: 1 });
    expect((await h.balance(userId)).version).toBe(1);
  });
});

describe('user.deleted', () => {
  test('when auth deletes a user, then the bot no longer finds them and they cannot pay; the balance stays', async () => {
    const telegramId = 920_000_000 + nextId++;
    const userId = await h.registerUser({ telegram_id: telegramId });
    await adjust(userId, { deposit_credits: 5 });
    await h.deliver('user.deleted', {
      user_id: userId,
      email: `user${userId}@example.com`,
      deleted_at: new Date().toISOString(),
      version: 1,
    });
    expect((await h.call('GET', `/api/bot/balance?telegram_id=${telegramId}`, { bot: true })).status).toBe(404);
    const pay = await h.call('POST', '/api/billing/payments', { token: h.userToken(userId), body: { amount: 10 } });
    expect(pay).toMatchObject({ status: 404, body: { error: 'Пользователь не найден' } });
    expect((await h.balance(userId)).credits).toBe(5);
  });

  test('when a user billing has not heard of yet asks for the balance, then it starts on Base and is announced', async () => {
    const userId = 990_000 + nextId++;
    expect(await h.balance(userId)).toMatchObject({ credits: 0, included_credits: 0, version: 1 });
    await h.publishedChange(userId, 'initial');
    const early = await h.call('POST', '/api/billing/payments', { token: h.userToken(userId), body: { amount: 10 } });
    expect(early).toMatchObject({ status: 503, body: { code: 'user_not_ready' } });
  });
});

describe('message.recorded: charging a message', () => {
  test('when the user has included credits, then they are taken first and the rest from bought credits', async () => {
    const userId = await h.registerUser();
    await adjust(userId, { tariff_id: 2, deposit_credits: 100 }); // Premium: 70 000 included
    const msg = message(userId, 70_050);
    await h.deliver('message.recorded', msg);

    expect(await h.balance(userId)).toMatchObject({ credits: 50, included_credits: 0 });
    const entries = (await ledgerOf(userId)).filter((e) => e.reference === `message:${msg.message_id}`);
    expect(entries).toEqual([
      expect.objectContaining({ bucket: 'included', amount: '-70000', balance_after: '0', reason: 'message_charge' }),
      expect.objectContaining({ bucket: 'credits', amount: '-50', balance_after: '50', reason: 'message_charge' }),
    ]);
  });

  test('when the cost exceeds the balance, then it is taken in full, the balance goes below zero and the bot may not send', async () => {
    const telegramId = 700_000_000 + nextId++;
    const userId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    await adjust(userId, { deposit_credits: 30 });
    await h.deliver('message.recorded', message(userId, 100));

    const { status, body } = await h.call('GET', `/api/bot/balance?telegram_id=${telegramId}`, { bot: true });
    expect(status).toBe(200);
    expect(body).toMatchObject({ user_id: userId, credits: -70, included_credits: 0, can_send: false });
  });

  test('when the same message is delivered twice (same event, then a new event for the same message), then it is charged once', async () => {
    const userId = await h.registerUser();
    await adjust(userId, { deposit_credits: 1000 });
    const msg = message(userId, 40);
    const event = h.event('message.recorded', msg);
    await h.publish(event);
    await h.publish(event);
    await h.consumed(event.id);
    await h.consumed(event.id);
    await h.deliver('message.recorded', msg);

    expect((await h.balance(userId)).credits).toBe(960);
    expect((await ledgerOf(userId)).filter((e) => e.reference === `message:${msg.message_id}`)).toHaveLength(1);
  });

  test('when a message cost nothing (an error), then the balance and its version stay', async () => {
    const userId = await h.registerUser();
    const before = await h.balance(userId);
    await h.deliver('message.recorded', message(userId, 0, { status: 'error', error_message: 'timeout' }));
    expect(await h.balance(userId)).toEqual(before);
  });

  test('when a message.recorded is malformed, then it goes to the dead letters and charges nothing', async () => {
    const userId = await h.registerUser();
    const poisoned = { ...h.event('message.recorded', message(userId, 5)), data: { message_id: 'x', user_id: userId } };
    await h.publish(poisoned);
    await h.billing.deps.bus.waitFor('dead-lettered', (e) => e.id === poisoned.id);
    expect(await ledgerOf(userId)).toEqual([]);
  });

  test('when the handler fails (a new balance but no default tariff yet), then the event is retried and charged once', async () => {
    const { db } = h.billing.deps;
    const userId = 980_000 + nextId++; // no balance yet: creating it needs the default tariff
    await db.updateTable('tariffs').set({ is_default: false }).where('is_default', '=', true).execute();
    const event = await h.publish(h.event('message.recorded', message(userId, 3)));
    try {
      await h.billing.deps.bus.waitFor('retried', (e) => e.id === event.id);
    } finally {
      await db.updateTable('tariffs').set({ is_default: true }).where('id', '=', 1).execute();
    }
    await h.consumed(event.id);
    expect(await h.balance(userId)).toMatchObject({ credits: -3, tariff: { name: 'Base' } });
  });

  test('when 100 charges for one user arrive at once, then none is lost: the balance and the version are exact', async () => {
    const userId = await h.registerUser();
    await adjust(userId, { deposit_credits: 10_000 });
    const start = await h.balance(userId);
    const events = Array.from({ length: 100 }, (_, i) => h.event('message.recorded', message(userId, 7 + (i % 3))));
    await Promise.all(events.map((event) => h.publish(event)));
    await Promise.all(events.map((event) => h.consumed(event.id)));

    const expectedCost = events.reduce((sum, e) => sum + e.data.cost, 0);
    const after = await h.balance(userId);
    expect(after.credits).toBe(10_000 - expectedCost);
    expect(after.version).toBe(start.version + 100);
    const charges = (await ledgerOf(userId)).filter((e) => e.reason === 'message_charge');
    expect(charges).toHaveLength(100);
    expect(charges.reduce((sum, e) => sum + Number(e.amount), 0)).toBe(-expectedCost);
  });
});

describe('credits.changed', () => {
  test('when the balance changes, then every snapshot carries a version one above the previous', async () => {
    const userId = await h.registerUser();
    await h.publishedChange(userId, 'initial');
    await adjust(userId, { deposit_credits: 10 });
    const deposit = await h.publishedChange(userId, 'admin_deposit');
    await h.deliver('message.recorded', message(userId, 3));
    const charge = await h.publishedChange(userId, 'message_charge');
    expect([deposit.version, charge.version]).toEqual([2, 3]);
    expect(charge).toMatchObject({ credits: 7, tariff: { name: 'Base' }, money_deposited: '0.00' });
  });
});

describe('accounts.linked: merging two balances', () => {
  test('when a Telegram account is merged into a web account, then its balances move as paired entries under one reference', async () => {
    const webId = await h.registerUser();
    const telegramId = 800_000_000 + webId;
    const botId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    await adjust(webId, { deposit_credits: 500 });
    await adjust(botId, { deposit_credits: 300, tariff_id: 2 });
    await h.deliver('message.recorded', message(botId, 1000)); // from the Premium credits: 69 000 left

    const linked = await h.deliver('accounts.linked', {
      user_id: webId,
      merged_user_id: botId,
      telegram_id: telegramId,
      linked_at: new Date().toISOString(),
    });
    const reference = `merge:${linked.id}`;

    const survivor = await h.balance(webId);
    expect(survivor).toMatchObject({ credits: 800, included_credits: 69_000, tariff: { name: 'Premium' } });
    expect(await h.balance(botId)).toMatchObject({ credits: 800, included_credits: 69_000 }); // reads follow the merge
    const merged = await h.billing.deps.db
      .selectFrom('balances')
      .select(['credits', 'included_credits'])
      .where('user_id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(merged).toEqual({ credits: '0', included_credits: '0' });

    const entries = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select(['user_id', 'bucket', 'amount'])
      .where('reference', '=', reference)
      .orderBy('user_id')
      .orderBy('bucket')
      .execute();
    // webId < botId: the survivor's entries come first.
    expect(entries).toEqual([
      { user_id: webId, bucket: 'credits', amount: '300' },
      { user_id: webId, bucket: 'included', amount: '69000' },
      { user_id: botId, bucket: 'credits', amount: '-300' },
      { user_id: botId, bucket: 'included', amount: '-69000' },
    ]);
    expect(entries.reduce((sum, e) => sum + Number(e.amount), 0)).toBe(0);

    // A charge recorded later for the merged account lands on the survivor.
    await h.deliver('message.recorded', message(botId, 10));
    expect((await h.balance(webId)).included_credits).toBe(68_990);
  });

  test('when a payment of the merged account succeeds after the merge, then the survivor is credited', async () => {
    const webId = await h.registerUser();
    const telegramId = 910_000_000 + webId;
    const botId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    const created = await h.call<{ payment_id: string }>('POST', '/api/bot/payments', {
      bot: true,
      body: { telegram_id: telegramId, amount: 20, email: 'bot@example.com' },
    });
    await h.deliver('accounts.linked', {
      user_id: webId,
      merged_user_id: botId,
      telegram_id: telegramId,
      linked_at: new Date().toISOString(),
    });
    const payment = await h.billing.deps.db
      .selectFrom('payments')
      .select(['user_id', 'yookassa_payment_id'])
      .where('payment_id', '=', created.body.payment_id)
      .executeTakeFirstOrThrow();
    expect(payment.user_id).toBe(webId);

    h.yookassa.succeed(payment.yookassa_payment_id!);
    expect((await h.yookassa.notify(h.webhookUrl, payment.yookassa_payment_id!)).status).toBe(200);
    expect(await h.balance(webId)).toMatchObject({ credits: 2000, money_deposited: '20.00' });
  });

  test('when the same accounts.linked is delivered again, then nothing moves twice', async () => {
    const webId = await h.registerUser();
    const botId = await h.registerUser({ telegram_id: 900_000_000 + webId, email: null, source: 'telegram' });
    await adjust(botId, { deposit_credits: 50 });
    const event = h.event('accounts.linked', {
      user_id: webId,
      merged_user_id: botId,
      telegram_id: 900_000_000 + webId,
      linked_at: new Date().toISOString(),
    });
    await h.publish(event);
    await h.consumed(event.id);
    await h.publish(event);
    await h.consumed(event.id);
    expect((await h.balance(webId)).credits).toBe(50);
  });
});

describe('POST /internal/users/:id/adjustments (admin deposit and tariff change)', () => {
  test('when the admin deposits credits, then the new snapshot is answered at once and the ledger names the admin', async () => {
    const userId = await h.registerUser();
    const actionId = randomUUID();
    const body = { user_id: userId, admin_id: 42, action_id: actionId, deposit_credits: 250 };
    const res = await h.call('POST', `/internal/users/${userId}/adjustments`, { token: h.adminToken(42), body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: userId, credits: 250, version: 2 });
    expect(await ledgerOf(userId)).toEqual([
      {
        reference: `admin:${actionId}`,
        bucket: 'credits',
        amount: '250',
        balance_after: '250',
        reason: 'admin_deposit',
        admin_id: 42,
      },
    ]);

    const again = await h.call('POST', `/internal/users/${userId}/adjustments`, { token: h.adminToken(42), body });
    expect(again.body).toMatchObject({ credits: 250, version: 2 });
    expect(await ledgerOf(userId)).toHaveLength(1);
  });

  test('when the admin sets a tariff, then it runs for a month with its included credits', async () => {
    const userId = await h.registerUser();
    const res = await adjust(userId, { tariff_id: 3 });
    expect(res.body).toMatchObject({
      included_credits: 500_000,
      tariff: { id: 3, name: 'Elite', monthly_price: '1250.00' },
    });
    const end = new Date((res.body.tariff as { end_date: string }).end_date);
    const days = (end.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect(await ledgerOf(userId)).toEqual([
      expect.objectContaining({ reason: 'admin_tariff', amount: '500000', admin_id: 7 }),
    ]);

    const back = await adjust(userId, { tariff_id: 1 });
    expect(back.body).toMatchObject({ included_credits: 0, tariff: { name: 'Base', end_date: null } });
  });

  test('when the token is missing, belongs to a user, or to another admin, then nothing is applied', async () => {
    const userId = await h.registerUser();
    const body = { user_id: userId, admin_id: 5, action_id: randomUUID(), deposit_credits: 1 };
    const path = `/internal/users/${userId}/adjustments`;
    expect((await h.call('POST', path, { body })).status).toBe(401);
    expect((await h.call('POST', path, { body, token: h.userToken(5) })).status).toBe(403);
    const other = await h.call('POST', path, { body, token: h.adminToken(6) });
    expect(other).toMatchObject({ status: 403, body: { code: 'admin_mismatch' } });
    expect(await ledgerOf(userId)).toEqual([]);
  });

  test('when the tariff does not exist or the deposit is not a positive integer, then 404 / 400 with a clear message', async () => {
    const userId = await h.registerUser();
    const unknown = await adjust(userId, { tariff_id: 9999 });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Тариф не найден', code: 'tariff_not_found' } });
    const bad = await adjust(userId, { deposit_credits: -5 });
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_error' } });
  });
});

describe('GET /api/bot/balance', () => {
  test('when the Telegram id is unknown, then 404 with a Russian message; without the bot key, 401', async () => {
    const unknown = await h.call('GET', '/api/bot/balance?telegram_id=5', { bot: true });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Пользователь не найден' } });
    expect((await h.call('GET', '/api/bot/balance?telegram_id=5')).status).toBe(401);
  });

  test('when the user has Premium, then the bot learns it may send and generate images', async () => {
    const telegramId = 600_000_000 + nextId++;
    const userId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    await adjust(userId, { tariff_id: 2 });
    const { body } = await h.call('GET', `/api/bot/balance?telegram_id=${telegramId}`, { bot: true });
    expect(body).toMatchObject({
      user_id: userId,
      telegram_id: telegramId,
      credits: 0,
      included_credits: 70_000,
      can_send: true,
      can_generate_images: true,
      tariff: { name: 'Premium' },
    });
  });
});
