import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminStats, CreatePaymentResponse, CreditsChangedData } from '@gpt/contracts';
import { type FakeMailbox, sandboxDecisionCall, startFakeMailbox, TEST_SECRETS } from '@gpt/kit/testing';
import type { Kysely } from 'kysely';
import {
  busOf,
  callApi,
  confirmEmail,
  MANY_USERS_ENV,
  setSetting,
  setWelcomeCredits,
  signUp,
  startTestStack,
  type TestStack,
} from '../src/testing';
import { eventually } from './support/async';

/**
 * The welcome grant on the whole product: chat-history seeds `welcome_credits` (2 000) and
 * announces it, billing grants it once to every person whose account is confirmed (the mailed link,
 * the bot's first /start), within the per-address and global daily caps; auth shows it, metrics
 * never counts it. The gateway believes X-Forwarded-For from the test (TRUST_PROXY), so each sign-up
 * names its own client address.
 */
let stack: TestStack;
let mailbox: FakeMailbox;
let adminToken: string;

beforeAll(async () => {
  mailbox = await startFakeMailbox();
  stack = await startTestStack({ ...MANY_USERS_ENV, SMTP_URL: mailbox.url, TRUST_PROXY: '127.0.0.1' });
  const login = await callApi<{ token: string }>(stack.url, 'POST', '/api/auth/login', { body: stack.admin });
  adminToken = login.body.token;
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await mailbox?.close();
});

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

/** Auth has applied billing's snapshot of this user with this reason. */
const authApplied = (userId: number, reason: CreditsChangedData['reason']) =>
  busOf(stack, 'auth').waitFor('acked', (e) => {
    const data = e.data as CreditsChangedData;
    return e.type === 'credits.changed' && data.user_id === userId && data.reason === reason;
  });

/** A fresh client address for each sign-up unless one is named: the per-address cap never stops the others. */
let nextAddress = 1;
const freshAddress = () => `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

/** A site sign-up from `address`, not confirmed yet. */
async function signUpFrom(address = freshAddress()) {
  const user = await signUp(stack.url, { address });
  expect(user.user.email_confirmed).toBe(false);
  return user;
}

const confirm = (user: { email: string }) => confirmEmail(stack.url, mailbox, user.email);

/** A site sign-up that followed its link and got the grant. */
async function confirmedUser(address?: string) {
  const user = await signUpFrom(address);
  expect((await confirm(user)).status).toBe(200);
  return user;
}

/** Billing has handled the user's confirmation (whatever it granted). */
const billingConfirmed = (userId: number) =>
  busOf(stack, 'billing').waitFor(
    'acked',
    (e) => e.type === 'user.confirmed' && (e.data as { user_id: number }).user_id === userId,
  );

/** A person first seen by the bot: auth's bot upsert, as the bot's /start makes it. */
async function botUser() {
  const telegramId = 3_000_000 + Math.floor(Math.random() * 1e9);
  const res = await api<{ id: number }>('POST', '/api/bot/users', {
    botKey: TEST_SECRETS.BOT_API_KEY,
    body: { telegram_id: telegramId, first_name: 'Иван' },
  });
  expect(res.status).toBe(200);
  return { id: res.body.id, telegramId };
}

const profileOf = (token: string) => api('GET', '/api/auth/profile', { token }).then((res) => res.body);
const welcomeEntries = async (userId: number) => {
  const billing = stack.services.find((s) => s.name === 'billing')!;
  const db = billing.deps.db as Kysely<{ ledger_entries: { user_id: number; reason: string } }>;
  const rows = await db.selectFrom('ledger_entries').select('reason').where('user_id', '=', userId).execute();
  return rows.map((row) => row.reason).filter((reason) => reason.startsWith('welcome'));
};

describe('the welcome grant, welcome_credits as seeded (2 000)', () => {
  test('a site sign-up gets nothing until the mailed link is followed; following it twice grants once', async () => {
    const user = await signUpFrom();
    await authApplied(user.id, 'initial');
    expect(await profileOf(user.token)).toMatchObject({ credits: 0, welcome_credits: 0, email_confirmed: false });
    expect(await welcomeEntries(user.id)).toEqual([]);

    expect((await confirm(user)).status).toBe(200);
    await authApplied(user.id, 'welcome_grant');
    expect(await profileOf(user.token)).toMatchObject({
      credits: 2000,
      available_credits: 2000,
      welcome_credits: 2000,
      email_confirmed: true,
    });
    const again = await confirm(user);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, message: 'E-mail подтверждён' });
    // The next person's grant has passed billing after anything the second visit could have caused.
    const next = await confirmedUser();
    await authApplied(next.id, 'welcome_grant');
    expect(await welcomeEntries(user.id)).toEqual(['welcome_grant']);
  });

  test('a person who starts in the bot gets exactly one grant, however often the bot registers them', async () => {
    const first = await botUser();
    await authApplied(first.id, 'welcome_grant');
    const again = await api<{ id: number }>('POST', '/api/bot/users', {
      botKey: TEST_SECRETS.BOT_API_KEY,
      body: { telegram_id: first.telegramId },
    });
    expect(again.body.id).toBe(first.id);
    const balance = await api('GET', `/api/bot/balance?telegram_id=${first.telegramId}`, {
      botKey: TEST_SECRETS.BOT_API_KEY,
    });
    expect(balance.body).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    expect(await welcomeEntries(first.id)).toEqual(['welcome_grant']);
  });

  test('linking a bot account to a site account that both had the grant leaves exactly one', async () => {
    const web = await confirmedUser();
    const bot = await botUser();
    await Promise.all([authApplied(web.id, 'welcome_grant'), authApplied(bot.id, 'welcome_grant')]);
    const link = await api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: TEST_SECRETS.BOT_API_KEY,
      body: { telegram_id: bot.telegramId },
    });
    const revoked = authApplied(web.id, 'welcome_revoked');

    const res = await api('POST', '/api/auth/link', { token: web.token, body: { token: link.body.token } });

    expect(res.body).toMatchObject({ merged: true });
    await revoked;
    expect(await profileOf(web.token)).toMatchObject({ credits: 2000, welcome_credits: 2000, telegram_linked: true });
    expect(await welcomeEntries(web.id)).toEqual(['welcome_grant', 'welcome_revoked']);
  });

  test('the dashboard counts the roubles paid, never the welcome credits', async () => {
    const payer = await confirmedUser();
    await authApplied(payer.id, 'welcome_grant');
    const payment = await api<CreatePaymentResponse>('POST', '/api/billing/payments', {
      token: payer.token,
      body: { amount: 150 },
    });
    expect(payment.status).toBe(201);
    const decision = sandboxDecisionCall(payment.body.confirmation_url!, 'succeeded');
    await api('POST', decision.path, { body: decision.body });
    await authApplied(payer.id, 'payment');

    // Every user so far got 2 000 welcome credits; only the 150 ₽ paid is a deposit.
    await eventually(async () => {
      const stats = await api<AdminStats>('GET', '/api/admin/stats', { token: adminToken });
      expect(stats.body).toMatchObject({ depositedToday: '150.00', depositedMonth: '150.00' });
    }, 30_000);
    expect(await profileOf(payer.token)).toMatchObject({ credits: 17_000, welcome_credits: 2000 });
  });

  test('when the admin sets welcome_credits to 0, then a new person gets nothing', async () => {
    await setWelcomeCredits(stack, 0);
    const user = await confirmedUser();
    await billingConfirmed(user.id);
    const bot = await botUser();
    await billingConfirmed(bot.id);

    expect(await profileOf(user.token)).toMatchObject({ credits: 0, welcome_credits: 0 });
    expect(await welcomeEntries(user.id)).toEqual([]);
    expect(await welcomeEntries(bot.id)).toEqual([]);
  });
});

describe('welcome_daily_limit: how many people get the grant a day', () => {
  test('past the day’s allowance a new person gets no grant; raising it grants again', async () => {
    await setWelcomeCredits(stack, 2000);
    const first = await confirmedUser();
    await authApplied(first.id, 'welcome_grant');
    const billing = stack.services.find((s) => s.name === 'billing')!;
    const db = billing.deps.db as Kysely<{ ledger_entries: { reason: string } }>;
    const grantedSoFar = (
      await db.selectFrom('ledger_entries').select('reason').where('reason', '=', 'welcome_grant').execute()
    ).length;
    await setSetting(stack, 'welcome_daily_limit', grantedSoFar + 1);

    const last = await confirmedUser();
    await authApplied(last.id, 'welcome_grant');
    const late = await confirmedUser();
    await billingConfirmed(late.id);
    expect(await welcomeEntries(late.id)).toEqual([]);
    expect(await profileOf(late.token)).toMatchObject({ welcome_credits: 0, credits: 0 });

    await setSetting(stack, 'welcome_daily_limit', 1000);
    const next = await confirmedUser();
    await authApplied(next.id, 'welcome_grant');
    expect(await welcomeEntries(next.id)).toEqual(['welcome_grant']);
  });
});

describe('welcome_per_address_daily: grants a day to accounts signed up from one address', () => {
  test('the N+1-th confirmed sign-up from one address gets nothing the same day; another address still does', async () => {
    await setWelcomeCredits(stack, 2000);
    await setSetting(stack, 'welcome_per_address_daily', 2);
    const address = '203.0.113.9';
    const first = await confirmedUser(address);
    const second = await confirmedUser(address);
    await Promise.all([authApplied(first.id, 'welcome_grant'), authApplied(second.id, 'welcome_grant')]);

    const third = await confirmedUser(address);
    await billingConfirmed(third.id);
    expect(await welcomeEntries(third.id)).toEqual([]);
    expect(await profileOf(third.token)).toMatchObject({ welcome_credits: 0, credits: 0, email_confirmed: true });

    const elsewhere = await confirmedUser('203.0.113.10');
    await authApplied(elsewhere.id, 'welcome_grant');
    expect(await profileOf(elsewhere.token)).toMatchObject({ welcome_credits: 2000 });
    await setSetting(stack, 'welcome_per_address_daily', 3);
  });

  test('a new confirmation mail is sent once a minute at most: the second ask gets 429 in Russian', async () => {
    const user = await signUpFrom();
    const sent = await api('POST', '/api/auth/email-confirmation', { token: user.token });
    expect(sent.status).toBe(202);
    const refused = await api('POST', '/api/auth/email-confirmation', { token: user.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'Письмо уже отправлено. Запросить ещё одно можно через 1 мин.' });
  });
});
