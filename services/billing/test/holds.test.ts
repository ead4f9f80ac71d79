import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { BotBalanceResponse, BotHoldResponse, CreditsChangedData } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';
import { recordedMessage as message } from './support/events';

let h: BillingHarness;
let nextTelegramId = 930_000_000;

beforeAll(async () => {
  h = await startBillingHarness({ HOLD_TTL_SEC: '600', HOLD_EXPIRY_INTERVAL_SEC: '1' });
});
afterAll(() => h.stop());

/** A Telegram user with `credits` bought credits; answers both ids. */
async function telegramUser(credits: number) {
  const telegramId = nextTelegramId++;
  const userId = await h.registerUser({ telegram_id: telegramId, source: 'telegram' });
  if (credits > 0) {
    const deposit = await h.call('POST', `/internal/users/${userId}/adjustments`, {
      token: h.adminToken(7),
      body: { user_id: userId, admin_id: 7, action_id: randomUUID(), deposit_credits: credits },
    });
    expect(deposit.status).toBe(200);
  }
  return { userId, telegramId };
}

const hold = (telegramId: number, amount: number) =>
  h.call<BotHoldResponse & { error?: string; code?: string }>('POST', '/api/bot/holds', {
    bot: true,
    body: { telegram_id: telegramId, amount },
  });

const release = (holdId: string) => h.call('DELETE', `/api/bot/holds/${holdId}`, { bot: true });

const botBalance = async (telegramId: number) =>
  (await h.call<BotBalanceResponse>('GET', `/api/bot/balance?telegram_id=${telegramId}`, { bot: true })).body;

const holdRow = (holdId: string) =>
  h.billing.deps.db.selectFrom('holds').selectAll().where('id', '=', holdId).executeTakeFirstOrThrow();

const published = (reference: string, reason: string) =>
  h.billing.deps.bus
    .waitFor('published', (e) => {
      const data = e.data as CreditsChangedData;
      return e.type === 'credits.changed' && data.reference === reference && data.reason === reason;
    })
    .then((e) => e.data as CreditsChangedData);

describe('POST /api/bot/holds', () => {
  test('when the user can afford it, then 201 with the hold, and the balance shows it held and announces it', async () => {
    const { userId, telegramId } = await telegramUser(1000);
    const before = Date.now();
    const placed = await hold(telegramId, 300);

    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ amount: 300, available_credits: 700 });
    expect(placed.body.hold_id).toMatch(/^[0-9a-f-]{36}$/);
    const expiresIn = new Date(placed.body.expires_at).getTime() - before;
    expect(expiresIn).toBeGreaterThan(590_000);
    expect(expiresIn).toBeLessThan(610_000);
    expect(await botBalance(telegramId)).toMatchObject({
      user_id: userId,
      credits: 1000,
      held_credits: 300,
      available_credits: 700,
      can_send: true,
    });
    const snapshot = await published(`hold:${placed.body.hold_id}`, 'hold_placed');
    expect(snapshot).toMatchObject({ user_id: userId, credits: 1000, held_credits: 300 });
    expect(await h.balance(userId)).toMatchObject({ credits: 1000, held_credits: 300, version: snapshot.version });
  });

  test('when fewer credits are available than asked, then 402 «Недостаточно кредитов» and nothing is held', async () => {
    const { telegramId } = await telegramUser(100);
    expect((await hold(telegramId, 60)).status).toBe(201);

    const refused = await hold(telegramId, 41);
    expect(refused).toEqual({
      status: 402,
      body: { error: 'Недостаточно кредитов', code: 'insufficient_credits', details: [{ available_credits: 40 }] },
    });
    expect(await botBalance(telegramId)).toMatchObject({ held_credits: 60, available_credits: 40 });
    expect((await hold(telegramId, 40)).status).toBe(201);
    expect(await botBalance(telegramId)).toMatchObject({ held_credits: 100, available_credits: 0, can_send: false });
  });

  test('when the Telegram user is unknown, then 404 user_not_found; a bad amount is 400', async () => {
    expect(await hold(999_999_999_999, 10)).toMatchObject({ status: 404, body: { code: 'user_not_found' } });
    const { telegramId } = await telegramUser(10);
    expect((await hold(telegramId, 0)).status).toBe(400);
    expect((await hold(telegramId, 1.5)).status).toBe(400);
  });

  test('when 20 holds arrive at once for a balance that affords 5, then exactly 5 are placed and 15 refused', async () => {
    const { telegramId } = await telegramUser(500);
    const answers = await Promise.all(Array.from({ length: 20 }, () => hold(telegramId, 100)));

    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(5).fill(201), ...Array<number>(15).fill(402)]);
    expect(await botBalance(telegramId)).toMatchObject({ credits: 500, held_credits: 500, available_credits: 0 });
  });
});

describe('DELETE /api/bot/holds/{id}', () => {
  test('when the bot releases a hold, then 204, the credits are available again, and a repeat is 204 too', async () => {
    const { userId, telegramId } = await telegramUser(200);
    const placed = await hold(telegramId, 150);

    expect((await release(placed.body.hold_id)).status).toBe(204);
    expect(await botBalance(telegramId)).toMatchObject({ held_credits: 0, available_credits: 200 });
    expect((await holdRow(placed.body.hold_id)).status).toBe('released');
    const snapshot = await published(`hold:${placed.body.hold_id}`, 'hold_released');
    expect(snapshot).toMatchObject({ user_id: userId, held_credits: 0 });

    expect((await release(placed.body.hold_id)).status).toBe(204);
    expect((await h.balance(userId)).version).toBe(snapshot.version);
  });

  test('when the hold is unknown, then 404; when the id is no uuid, then 400', async () => {
    expect(await release(randomUUID())).toMatchObject({ status: 404, body: { code: 'hold_not_found' } });
    expect((await release('42')).status).toBe(400);
  });
});

describe('hold expiry', () => {
  test('when a hold passes its expiry, then it stops counting at once and the job marks it expired', async () => {
    const { userId, telegramId } = await telegramUser(100);
    const placed = await hold(telegramId, 100);
    expect(await botBalance(telegramId)).toMatchObject({ available_credits: 0, can_send: false });

    await h.billing.deps.db
      .updateTable('holds')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', placed.body.hold_id)
      .execute();
    expect(await botBalance(telegramId)).toMatchObject({ held_credits: 0, available_credits: 100, can_send: true });

    const snapshot = await published(`hold:${placed.body.hold_id}`, 'hold_released');
    expect(snapshot).toMatchObject({ user_id: userId, held_credits: 0, credits: 100 });
    expect((await holdRow(placed.body.hold_id)).status).toBe('expired');
    expect((await release(placed.body.hold_id)).status).toBe(204);
  });
});

describe('message.recorded with a hold', () => {
  test('when the message costs less than the hold, then the exact cost is charged and the hold settled', async () => {
    const { userId, telegramId } = await telegramUser(1000);
    const placed = await hold(telegramId, 400);
    const msg = message(userId, 123, { hold_id: placed.body.hold_id });
    await h.deliver('message.recorded', msg);

    expect(await botBalance(telegramId)).toMatchObject({ credits: 877, held_credits: 0, available_credits: 877 });
    expect(await holdRow(placed.body.hold_id)).toMatchObject({ status: 'settled', message_id: String(msg.message_id) });
    const charged = await published(`message:${msg.message_id}`, 'message_charge');
    expect(charged).toMatchObject({ credits: 877, held_credits: 0 });
  });

  test('when the message costs more than the hold, then only the hold is charged and the balance stays at zero', async () => {
    const { userId, telegramId } = await telegramUser(300);
    const placed = await hold(telegramId, 300);
    await h.deliver('message.recorded', message(userId, 5000, { hold_id: placed.body.hold_id }));

    expect(await botBalance(telegramId)).toMatchObject({ credits: 0, held_credits: 0, available_credits: 0 });
  });

  test('when the cost is above the hold, then the cap leaves other holds of the user untouched', async () => {
    const { userId, telegramId } = await telegramUser(500);
    const first = await hold(telegramId, 200);
    await hold(telegramId, 300);
    await h.deliver('message.recorded', message(userId, 450, { hold_id: first.body.hold_id }));

    expect(await botBalance(telegramId)).toMatchObject({ credits: 300, held_credits: 300, available_credits: 0 });
  });

  test('when the message is an error, then it costs nothing and the hold is released', async () => {
    const { userId, telegramId } = await telegramUser(100);
    const placed = await hold(telegramId, 80);
    await h.deliver(
      'message.recorded',
      message(userId, 0, { status: 'error', error_message: 'timeout', hold_id: placed.body.hold_id }),
    );

    expect(await botBalance(telegramId)).toMatchObject({ credits: 100, held_credits: 0, available_credits: 100 });
    expect((await holdRow(placed.body.hold_id)).status).toBe('released');
    expect(await published(`hold:${placed.body.hold_id}`, 'hold_released')).toMatchObject({ held_credits: 0 });
  });

  test('when the same message arrives again under another event id, then nothing changes', async () => {
    const { userId, telegramId } = await telegramUser(1000);
    const placed = await hold(telegramId, 500);
    const msg = message(userId, 250, { hold_id: placed.body.hold_id });
    await h.deliver('message.recorded', msg);
    const after = await h.balance(userId);

    await h.deliver('message.recorded', msg);
    expect(await h.balance(userId)).toEqual(after);
    expect(after).toMatchObject({ credits: 750, held_credits: 0 });
  });

  test('when the hold expired before the message came, then the charge still never takes the balance below zero', async () => {
    const { userId, telegramId } = await telegramUser(100);
    const placed = await hold(telegramId, 100);
    await h.billing.deps.db
      .updateTable('holds')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', placed.body.hold_id)
      .execute();
    await hold(telegramId, 70); // the lapsed hold's credits were taken by another call
    await h.deliver('message.recorded', message(userId, 90, { hold_id: placed.body.hold_id }));

    expect(await botBalance(telegramId)).toMatchObject({ credits: 70, held_credits: 70, available_credits: 0 });
  });

  test('when a message has no hold, then the whole cost is charged, below zero if need be', async () => {
    const { userId, telegramId } = await telegramUser(100);
    await h.deliver('message.recorded', message(userId, 150));

    expect(await botBalance(telegramId)).toMatchObject({ credits: -50, available_credits: -50, can_send: false });
  });
});

describe('accounts.linked with active holds', () => {
  test('when the held account is merged, then its holds count against the survivor', async () => {
    const webId = await h.registerUser();
    const { userId: botId, telegramId } = await telegramUser(400);
    const placed = await hold(telegramId, 150);
    await h.deliver('accounts.linked', {
      user_id: webId,
      merged_user_id: botId,
      telegram_id: telegramId,
      linked_at: new Date().toISOString(),
    });

    expect(await h.balance(webId)).toMatchObject({ credits: 400, held_credits: 150 });
    await h.deliver('message.recorded', message(botId, 100, { hold_id: placed.body.hold_id }));
    expect(await h.balance(webId)).toMatchObject({ credits: 300, held_credits: 0 });
  });
});
