import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminUserRow, Tariff } from '@gpt/contracts';
import { setWelcomeCredits, startTestStack, type TestStack } from '@gpt/deploy/testing';
import type { Bus, EventSchemas } from '@gpt/kit';
import { uniqueName } from '@gpt/kit/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { BOT_KEY, call, type Session } from './support/auth-harness';

/** The whole product: auth behind the real gateway, with billing applying deposits, tariffs and merges. */
let stack: TestStack;
let admin: Session;
let authBus: Bus<unknown, EventSchemas>;

beforeAll(async () => {
  stack = await startTestStack({
    ARGON2_MEMORY_KIB: '8192',
    ARGON2_TIME_COST: '1',
    RATE_LIMIT_LOGIN_POINTS: '1000',
    RATE_LIMIT_REGISTER_POINTS: '1000',
  });
  // Balances here count from 0: no welcome grant.
  await setWelcomeCredits(stack, 0);
  authBus = stack.services.find((s) => s.name === 'auth')!.deps.bus;
  admin = await login(stack.admin.email, stack.admin.password);
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof call>[3]) =>
  call<T>(stack.url, method, path, options);

async function login(email: string, password: string): Promise<Session> {
  const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/login', {
    body: { email, password },
  });
  expect(res.status).toBe(200);
  return { id: res.body.user.id, email, password, token: res.body.token };
}

/** A web user whose balance billing has opened (auth has applied billing's first snapshot). */
async function registered(): Promise<Session> {
  const email = `${uniqueName('stack')}@example.com`;
  const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/register', {
    body: { email, password: 'password1' },
  });
  expect(res.status).toBe(201);
  await balanceOpened(res.body.user.id);
  return { id: res.body.user.id, email, password: 'password1', token: res.body.token };
}

/** Billing opened the user's balance and auth applied its first snapshot (the bus remembers recent events). */
const balanceOpened = (userId: number) =>
  authBus.waitFor('acked', (e) => e.type === 'credits.changed' && (e.data as { user_id: number }).user_id === userId);

/** The old token is refused by the gateway 1 s after the change (its version cache lives 500 ms). */
async function expectRefusedOneSecondLater(token: string, change: () => Promise<{ status: number }>) {
  // The gateway has just read and cached this token's version.
  expect((await api('GET', '/api/auth/profile', { token })).status).toBe(200);
  expect((await change()).status).toBe(200);
  await sleep(1000);
  const res = await api('GET', '/api/auth/profile', { token });
  expect(res.status).toBe(401);
  expect(res.body.code).toBe('token_revoked');
}

describe('token revocation through the gateway', () => {
  test('after a password change, the older token is refused at the 1 s mark and the new one works', async () => {
    const user = await registered();
    let fresh = '';
    await expectRefusedOneSecondLater(user.token, async () => {
      const res = await api<{ token: string }>('POST', '/api/auth/change-password', {
        token: user.token,
        body: { currentPassword: user.password, newPassword: 'password2' },
      });
      fresh = res.body.token;
      return res;
    });
    expect((await api('GET', '/api/auth/profile', { token: fresh })).status).toBe(200);
  });

  test('after a role change, the older token is refused at the 1 s mark', async () => {
    const user = await registered();
    await expectRefusedOneSecondLater(user.token, () =>
      api('PUT', `/api/admin/users/${user.id}`, { token: admin.token, body: { role: 'admin' } }),
    );
  });

  test('after deletion, the token is refused at the 1 s mark', async () => {
    const user = await registered();
    await expectRefusedOneSecondLater(user.token, () =>
      api('DELETE', `/api/admin/users/${user.id}`, { token: admin.token }),
    );
  });
});

describe('admin edit through billing', () => {
  test('a deposit and a tariff change show in the answer and in the reloaded list at once', async () => {
    const user = await registered();
    const tariffs = await api<{ tariffs: Tariff[] }>('GET', '/api/tariffs');
    const premium = tariffs.body.tariffs.find((t) => t.name === 'Premium')!;

    const res = await api<{ user: AdminUserRow }>('PUT', `/api/admin/users/${user.id}`, {
      token: admin.token,
      body: { email: user.email, role: 'user', tariff_id: premium.id, depositAmount: 500 },
    });

    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ credits: 500, tariff_id: premium.id, tariff_name: 'Premium' });
    const list = await api<{ users: AdminUserRow[] }>(
      'GET',
      `/api/admin/users?email=${encodeURIComponent(user.email)}`,
      {
        token: admin.token,
      },
    );
    expect(list.body.users[0]).toMatchObject({ credits: 500, tariff_name: 'Premium', included_credits: 70000 });
    const profile = await api('GET', '/api/auth/profile', { token: user.token });
    expect(profile.body).toMatchObject({ tariff_name: 'Premium', monthly_price: '350.00', credits: 500 });
  });

  test('an unknown tariff is refused with billing’s message and nothing changes', async () => {
    const user = await registered();
    const res = await api('PUT', `/api/admin/users/${user.id}`, {
      token: admin.token,
      body: { tariff_id: 999_999 },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Тариф не найден', code: 'tariff_not_found' });
    const profile = await api('GET', '/api/auth/profile', { token: user.token });
    expect(profile.body).toMatchObject({ tariff_name: 'Base', credits: 0 });
  });
});

describe('linking merges two balances', () => {
  test('the Telegram account’s credits join the web account’s after the link', async () => {
    const web = await registered();
    const telegramId = 5_000_000 + Math.floor(Math.random() * 1e9);
    const tg = await api<{ id: number }>('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, username: 'merge_me' },
    });
    expect(tg.status).toBe(200);
    await balanceOpened(tg.body.id);
    for (const [id, depositAmount] of [
      [web.id, 50],
      [tg.body.id, 100],
    ] as const) {
      const res = await api('PUT', `/api/admin/users/${id}`, { token: admin.token, body: { depositAmount } });
      expect(res.status).toBe(200);
    }
    const link = await api<{ url: string; token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId },
    });
    const merged = authBus.waitFor(
      'acked',
      (e) =>
        e.type === 'credits.changed' &&
        (e.data as { user_id: number; reason: string }).user_id === web.id &&
        (e.data as { reason: string }).reason === 'merge',
    );

    const res = await api('POST', '/api/auth/link', { token: web.token, body: { token: link.body.token } });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ merged: true });
    await merged;
    const profile = await api('GET', '/api/auth/profile', { token: web.token });
    expect(profile.body).toMatchObject({ credits: 150, telegram_linked: true, telegram_id: telegramId });
  });
});

describe('the receipt e-mail the bot asks for', () => {
  test('is kept as the user’s telegram_email, so the next payment does not ask again', async () => {
    const telegramId = 6_000_000 + Math.floor(Math.random() * 1e9);
    const tg = await api<{ id: number }>('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId },
    });
    await balanceOpened(tg.body.id);
    const billingBus = stack.services.find((s) => s.name === 'billing')!.deps.bus;
    const pay = () =>
      api<{ payment_id: string; status: string }>('POST', '/api/bot/payments', {
        botKey: BOT_KEY,
        body: { telegram_id: telegramId, amount: '100.00' },
      });
    const first = await pay();
    expect(first.body.status).toBe('pending_email');
    const billingKnows = billingBus.waitFor(
      'acked',
      (e) =>
        e.type === 'user.updated' &&
        (e.data as { user_id: number; telegram_email: string | null }).user_id === tg.body.id &&
        (e.data as { telegram_email: string | null }).telegram_email === 'receipts@example.com',
    );

    const supplied = await api('PATCH', `/api/bot/payments/${first.body.payment_id}/email`, {
      botKey: BOT_KEY,
      body: { email: 'receipts@example.com' },
    });

    expect(supplied.status).toBe(200);
    await billingKnows;
    const again = await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId },
    });
    expect(again.body).toMatchObject({
      telegram_email: 'receipts@example.com',
    });
    expect((await pay()).body.status).toBe('pending');
  });
});
