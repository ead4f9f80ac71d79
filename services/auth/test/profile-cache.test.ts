import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { UserProfile } from '@gpt/contracts';
import { signAccessToken, verifyAccessToken } from '@gpt/kit';
import { startTestService } from '@gpt/kit/testing';
import { loadAuthConfig } from '../src/config';
import { usersRepository } from '../src/data/users.repository';
import { authService } from '../src/service';
import {
  type AuthHarness,
  type AuthService,
  BOT_KEY,
  call,
  PREMIUM_TARIFF,
  publishEvent,
  reportBalance,
  startAuth,
} from './support/auth-harness';

// Two replicas of auth on one database and one Redis (key prefix and change channel): events reach
// the first one only, as with a queue the replicas share, so the second learns of each change
// through the channel. A kept profile lives 30 s at most, so a change seen within a second was
// announced, not waited out.
let h: AuthHarness;
let replica: AuthService;
beforeAll(async () => {
  h = await startAuth();
  replica = await startTestService(
    authService,
    loadAuthConfig,
    {
      ADMIN_EMAIL: h.admin.email,
      ADMIN_PASSWORD: h.admin.password,
      BILLING_URL: 'http://127.0.0.1:9',
      REDIS_KEY_PREFIX: h.auth.deps.config.REDIS_KEY_PREFIX,
    },
    { databaseUrl: h.auth.deps.config.SERVICE_DATABASE_URL },
  );
});
afterAll(async () => {
  await replica.stop();
  await h.stop();
});

const bases = () => [h.auth.url, replica.url];

const profileAt = (base: string, token: string) => call<UserProfile>(base, 'GET', '/api/auth/profile', { token });

/** Reads the profile at `base` until `seen` holds; fails after a second. */
async function seenWithinASecond(base: string, token: string, seen: (profile: UserProfile) => boolean) {
  const deadline = Date.now() + 1000;
  for (;;) {
    const { status, body } = await profileAt(base, token);
    if (status === 200 && seen(body)) return body;
    if (Date.now() > deadline) throw new Error(`profile at ${base} unchanged after 1 s: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads the profile on both replicas, so each keeps it. */
async function keptOnBoth(token: string) {
  for (const base of bases()) expect((await profileAt(base, token)).status).toBe(200);
}

describe('the profile is kept until the user changes', () => {
  test('when the row changes behind auth (no event), then both replicas still answer the kept profile', async () => {
    const user = await h.buildUser();
    await keptOnBoth(user.token);
    await usersRepository(h.auth.deps.db).applyBalance({
      user_id: user.id,
      credits: 777,
      included_credits: 0,
      held_credits: 0,
      welcome_credits: 0,
      tariff: PREMIUM_TARIFF,
      money_deposited: '0.00',
      version: 1,
    });
    for (const base of bases()) {
      expect((await profileAt(base, user.token)).body).toMatchObject({ credits: 0, tariff_name: 'Base' });
    }
  });

  test('when billing reports a new balance and tariff, then the next read shows them here and within 1 s on the other replica', async () => {
    const user = await h.buildUser();
    await keptOnBoth(user.token);
    await reportBalance(h, user.id, {
      credits: 1500,
      included_credits: 70000,
      held_credits: 200,
      tariff: PREMIUM_TARIFF,
      money_deposited: '350.00',
      version: 1,
    });
    const expected = {
      credits: 1500,
      available_credits: 71300,
      tariff_id: PREMIUM_TARIFF.id,
      tariff_name: 'Premium',
      monthly_price: '350.00',
      tariff_end_date: PREMIUM_TARIFF.end_date,
    };
    expect((await profileAt(h.auth.url, user.token)).body).toMatchObject(expected);
    const seen = await seenWithinASecond(replica.url, user.token, (profile) => profile.credits === 1500);
    expect(seen).toMatchObject(expected);

    await reportBalance(h, user.id, { credits: 1400, included_credits: 70000, tariff: PREMIUM_TARIFF, version: 2 });
    expect((await profileAt(h.auth.url, user.token)).body).toMatchObject({ credits: 1400, held_credits: 0 });
    await seenWithinASecond(replica.url, user.token, (profile) => profile.credits === 1400);
  });

  test('when an admin changes the e-mail on one replica, then the other shows it within 1 s', async () => {
    const user = await h.buildUser();
    await keptOnBoth(user.token);
    const email = `renamed-${user.id}@example.com`;
    const res = await call(replica.url, 'PUT', `/api/admin/users/${user.id}`, {
      token: h.admin.token,
      body: { email },
    });
    expect(res.status).toBe(200);
    expect((await profileAt(replica.url, user.token)).body.email).toBe(email);
    await seenWithinASecond(h.auth.url, user.token, (profile) => profile.email === email);
  });

  test('when the bot reports a new Telegram name of a linked account, then the profile shows it', async () => {
    const user = await h.buildUser();
    const telegramId = 1_000_000 + Math.floor(Math.random() * 1e9);
    await h.buildTelegramUser({ telegram_id: telegramId, username: 'old_name' });
    const issued = await h.api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId },
    });
    expect(
      (await h.api('POST', '/api/auth/link', { token: user.token, body: { token: issued.body.token } })).status,
    ).toBe(200);
    await keptOnBoth(user.token);
    expect((await profileAt(replica.url, user.token)).body.telegram_username).toBe('old_name');

    await h.buildTelegramUser({ telegram_id: telegramId, username: 'new_name' });
    expect((await profileAt(h.auth.url, user.token)).body.telegram_username).toBe('new_name');
    await seenWithinASecond(replica.url, user.token, (profile) => profile.telegram_username === 'new_name');
  });

  test('when a payer gives a receipt e-mail, then the profile shows it', async () => {
    const user = await h.buildUser();
    await keptOnBoth(user.token);
    const event = await publishEvent(h.auth.deps.config.AMQP_EXCHANGE, 'receipt_email.supplied', {
      user_id: user.id,
      email: 'receipts@example.com',
      payment_id: crypto.randomUUID(),
      supplied_at: new Date().toISOString(),
    });
    await h.auth.deps.bus.waitFor('acked', (e) => e.id === event.id);
    expect((await profileAt(h.auth.url, user.token)).body.telegram_email).toBe('receipts@example.com');
    await seenWithinASecond(replica.url, user.token, (profile) => profile.telegram_email === 'receipts@example.com');
  });
});

describe('a revoked session is refused at once, kept profile or not', () => {
  test('when the password changes, then the old token gets 401 on both replicas at the next request, the new one 200', async () => {
    const user = await h.buildUser();
    await keptOnBoth(user.token);
    const changed = await h.api<{ token: string }>('POST', '/api/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'password2' },
    });
    expect(changed.status).toBe(200);
    for (const base of bases()) {
      expect(await profileAt(base, user.token)).toMatchObject({ status: 401, body: { code: 'token_revoked' } });
      expect((await profileAt(base, changed.body.token)).status).toBe(200);
    }
  });

  test('when an admin deletes the account, then its token gets 401 on both replicas at the next request', async () => {
    const user = await h.buildUser();
    await keptOnBoth(user.token);
    expect((await call(replica.url, 'DELETE', `/api/admin/users/${user.id}`, { token: h.admin.token })).status).toBe(
      200,
    );
    for (const base of bases()) {
      expect(await profileAt(base, user.token)).toMatchObject({ status: 401, body: { code: 'token_revoked' } });
    }
  });

  test('when a token accepted before has expired, then 401 token_expired (its kept claims are not reused)', async () => {
    const user = await h.buildUser();
    const secret = h.auth.deps.config.JWT_SECRET;
    const shortLived = signAccessToken({ sub: String(user.id), role: 'user', ver: 0 }, secret, '1s');
    expect((await profileAt(h.auth.url, shortLived)).status).toBe(200);
    const expiresAt = verifyAccessToken(shortLived, secret).exp * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    expect(await profileAt(h.auth.url, shortLived)).toMatchObject({ status: 401, body: { code: 'token_expired' } });
  });
});
