import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { BroadcastRecipientsRequest } from '@gpt/contracts';
import { BOT_KEY, PREMIUM_TARIFF, reportBalance, startAuth, type AuthHarness } from './support/auth-harness';

/**
 * A broadcast's recipients as auth answers them to the bot (docs/architecture.md, Calls between services):
 * its users and its projection of billing's balances and tariffs, never one who blocked the bot or
 * turned broadcasts off; and the «Новости и акции» switch, from the bot and from the site.
 */
let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h?.stop());

const ALL: BroadcastRecipientsRequest = {
  tariff_ids: null,
  paid: null,
  balance_below: null,
  linked: null,
  utm_source: null,
  tariff_ends_within_days: null,
};

const recipients = async (fields: Partial<BroadcastRecipientsRequest>, botKey = BOT_KEY) =>
  h.api<{ telegram_ids: number[] }>('POST', '/api/bot/broadcast-recipients', { botKey, body: { ...ALL, ...fields } });

describe('POST /api/bot/broadcast-recipients', () => {
  test('each filter narrows the segment; blocked and opted-out users are never in it', async () => {
    const source = `camp${Date.now()}`;
    const make = () => h.buildTelegramUser({ utm_source: source });
    const [premium, soonEnding, rich, blocked, optedOut] = await Promise.all([make(), make(), make(), make(), make()]);
    await reportBalance(h, premium.id, { credits: 10, tariff: PREMIUM_TARIFF, money_deposited: '350.00', version: 1 });
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await reportBalance(h, soonEnding.id, {
      credits: 10,
      tariff: { ...PREMIUM_TARIFF, end_date: soon },
      money_deposited: '350.00',
      version: 1,
    });
    await reportBalance(h, rich.id, { credits: 5000, version: 1 });
    await h.api('PUT', `/api/bot/users/${blocked.telegram_id}/blocked`, { botKey: BOT_KEY, body: { blocked: true } });
    const off = await h.api('PUT', `/api/bot/users/${optedOut.telegram_id}/news`, {
      botKey: BOT_KEY,
      body: { news: false },
    });
    expect(off.body).toEqual({ news: false });

    const ids = async (fields: Partial<BroadcastRecipientsRequest>) =>
      new Set((await recipients({ utm_source: source, ...fields })).body.telegram_ids);
    expect(await ids({})).toEqual(new Set([premium.telegram_id, soonEnding.telegram_id, rich.telegram_id]));
    expect(await ids({ tariff_ids: [PREMIUM_TARIFF.id] })).toEqual(
      new Set([premium.telegram_id, soonEnding.telegram_id]),
    );
    expect(await ids({ paid: 'never' })).toEqual(new Set([rich.telegram_id]));
    expect(await ids({ paid: 'ever', tariff_ends_within_days: 7 })).toEqual(new Set([soonEnding.telegram_id]));
    expect(await ids({ balance_below: 100 })).toEqual(new Set([premium.telegram_id, soonEnding.telegram_id]));
    expect(await ids({ linked: true })).toEqual(new Set());
    expect((await recipients({ utm_source: `${source}-other` })).body.telegram_ids).toEqual([]);
  });

  test('only with the bot key; a bad filter is 400 in Russian', async () => {
    expect((await recipients({}, 'wrong-key-123')).status).toBe(401);
    const bad = await recipients({ balance_below: -5 } as never);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: expect.stringContaining('Баланс ниже') });
  });
});

describe('«Новости и акции»', () => {
  test('the site and the bot switch the same thing; the site needs a signed-in user', async () => {
    const user = await h.buildUser();
    expect((await h.api('GET', '/api/auth/profile/news', { token: user.token })).body).toEqual({ news: true });
    expect((await h.api('PUT', '/api/auth/profile/news', { token: user.token, body: { news: false } })).body).toEqual({
      news: false,
    });
    expect((await h.api('GET', '/api/auth/profile/news', { token: user.token })).body).toEqual({ news: false });
    expect((await h.api('PUT', '/api/auth/profile/news', { body: { news: true } })).status).toBe(401);
    const bad = await h.api('PUT', '/api/auth/profile/news', { token: user.token, body: { news: 'no' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'news: ожидается true или false' });

    const telegram = await h.buildTelegramUser();
    const path = `/api/bot/users/${telegram.telegram_id}/news`;

    // Turned off in the bot, then linked to a site account that had them on: they stay off.
    const quiet = await h.buildTelegramUser();
    await h.api('PUT', `/api/bot/users/${quiet.telegram_id}/news`, { botKey: BOT_KEY, body: { news: false } });
    const site = await h.buildUser();
    const linkToken = await h.api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: quiet.telegram_id },
    });
    expect(
      (await h.api('POST', '/api/auth/link', { token: site.token, body: { token: linkToken.body.token } })).status,
    ).toBe(200);
    expect((await h.api('GET', '/api/auth/profile/news', { token: site.token })).body).toEqual({ news: false });
    expect((await h.api('GET', path, { botKey: BOT_KEY })).body).toEqual({ news: true });
    expect((await h.api('GET', `/api/bot/users/999000111222/news`, { botKey: BOT_KEY })).status).toBe(404);
  });
});
