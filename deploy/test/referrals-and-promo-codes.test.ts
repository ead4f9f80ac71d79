import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type {
  AdminReferralStats,
  AdminUsersResponse,
  CreatePaymentResponse,
  Envelope,
  PaymentSucceededData,
  ReferralRewardedData,
  ReferralSummary,
} from '@gpt/contracts';
import { createEvent, publishRaw, sandboxDecisionCall, TEST_SECRETS } from '@gpt/kit/testing';
import type { Kysely } from 'kysely';
import {
  busOf,
  callApi,
  MANY_USERS_ENV,
  setSetting,
  setWelcomeCredits,
  signUp,
  startTestStack,
  type TestStack,
} from '../src/testing';

/**
 * Referrals on the whole product: a friend who arrives through the site link (`?ref=` kept through
 * registration) or the bot link (`/start ref_CODE`) and pays earns the inviter `referral_percent`
 * (10 %) of the credits bought, once per payment, up to the per-friend cap; a refund takes it
 * back; one person never earns from themselves through linking. Welcome credits are off, so the
 * figures are the bonuses alone; a top-up of 150 ₽ on Base buys 15 000 credits.
 */
let stack: TestStack;
let adminToken: string;

beforeAll(async () => {
  stack = await startTestStack(MANY_USERS_ENV);
  const login = await callApi<{ token: string }>(stack.url, 'POST', '/api/auth/login', { body: stack.admin });
  adminToken = login.body.token;
  await setWelcomeCredits(stack, 0);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);
const bot = { botKey: TEST_SECRETS.BOT_API_KEY };
const billing = () => stack.services.find((s) => s.name === 'billing')!;

interface Person {
  id: number;
  token?: string;
  telegramId?: number;
}

/** A person signed up on the site (through the `ref` code when given) whom billing already knows. */
async function signUpWith(ref?: string): Promise<Required<Pick<Person, 'id' | 'token'>>> {
  const person = await signUp(stack.url, { ref });
  await billingSaw(person.id);
  return person;
}

/** A person first seen by the bot, with the `/start ref_CODE` code when given. */
async function botUser(referralCode?: string, telegramId = 4_000_000 + Math.floor(Math.random() * 1e9)) {
  const res = await api<{ id: number }>('POST', '/api/bot/users', {
    ...bot,
    body: { telegram_id: telegramId, first_name: 'Друг', referral_code: referralCode },
  });
  expect(res.status).toBe(200);
  await billingSaw(res.body.id);
  return { id: res.body.id, telegramId };
}

/** Billing has the user's snapshot (its referral code and inviter). */
const billingSaw = (userId: number) =>
  busOf(stack, 'billing').waitFor(
    'acked',
    (e) => ['user.registered', 'user.updated'].includes(e.type) && (e.data as { user_id: number }).user_id === userId,
    20_000,
  );

const summaryOf = async (person: Person) => {
  const res = person.token
    ? await api<ReferralSummary>('GET', '/api/billing/referrals', { token: person.token })
    : await api<ReferralSummary>('GET', `/api/bot/referrals?telegram_id=${person.telegramId}`, bot);
  expect(res.status).toBe(200);
  return res.body;
};

/** Pays a top-up through the sandbox provider and waits until billing has handled its `payment.succeeded`. */
async function pay(person: Person, amount = 150): Promise<Envelope<'payment.succeeded', PaymentSucceededData>> {
  const created = person.token
    ? await api<CreatePaymentResponse>('POST', '/api/billing/payments', { token: person.token, body: { amount } })
    : await api<CreatePaymentResponse>('POST', '/api/bot/payments', {
        ...bot,
        body: { telegram_id: person.telegramId, amount, email: 'payer@example.com' },
      });
  expect(created.status).toBe(201);
  const handled = busOf(stack, 'billing').waitFor(
    'acked',
    (e) => e.type === 'payment.succeeded' && (e.data as PaymentSucceededData).payment_id === created.body.payment_id,
    20_000,
  );
  const decision = sandboxDecisionCall(created.body.confirmation_url!, 'succeeded');
  await api('POST', decision.path, { body: decision.body });
  return (await handled) as Envelope<'payment.succeeded', PaymentSucceededData>;
}

/** Publishes an envelope on the stack's exchange and waits until billing has consumed it. */
async function deliverToBilling(envelope: Envelope) {
  const consumed = busOf(stack, 'billing').waitFor('acked', (e) => e.id === envelope.id, 20_000);
  await publishRaw(billing().deps.config.AMQP_EXCHANGE, envelope.type, envelope);
  await consumed;
}

/** `payment.refunded` of a succeeded payment, as billing's refund publishes it. */
const refundOf = (paid: PaymentSucceededData) =>
  createEvent('payment.refunded', 'billing', {
    payment_id: paid.payment_id,
    yookassa_payment_id: paid.yookassa_payment_id,
    user_id: paid.user_id,
    kind: paid.kind,
    tariff_id: paid.tariff_id,
    amount: paid.amount,
    currency: paid.currency,
    credits_amount: paid.credits_amount,
    refund_id: `refund-${paid.payment_id}`,
    refunded_at: new Date().toISOString(),
  });

/** The referral ledger entries of a user: amount and label. */
const referralEntries = async (userId: number) => {
  const db = billing().deps.db as Kysely<{
    ledger_entries: { id: string; user_id: number; reason: string; amount: string; description: string | null };
  }>;
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['reason', 'amount', 'description'])
    .where('user_id', '=', userId)
    .where('reason', 'like', 'referral%')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ reason: row.reason, amount: Number(row.amount), description: row.description }));
};

const creditsOf = async (person: Person) =>
  person.token
    ? (await api<{ credits: number }>('GET', '/api/billing/balance', { token: person.token })).body.credits
    : (await api<{ credits: number }>('GET', `/api/bot/balance?telegram_id=${person.telegramId}`, bot)).body.credits;

/** Links the Telegram account to the site account; resolves once billing has merged them and has the survivor's snapshot. */
async function linkTelegram(web: { id: number; token: string }, telegramId: number) {
  const link = await api<{ token: string }>('POST', '/api/bot/link-tokens', {
    ...bot,
    body: { telegram_id: telegramId },
  });
  const linked = busOf(stack, 'billing').waitFor(
    'acked',
    (e) => e.type === 'accounts.linked' && (e.data as { user_id: number }).user_id === web.id,
    20_000,
  );
  const updated = busOf(stack, 'billing').waitFor(
    'acked',
    (e) => e.type === 'user.updated' && (e.data as { user_id: number }).user_id === web.id,
    20_000,
  );
  const res = await api('POST', '/api/auth/link', { token: web.token, body: { token: link.body.token } });
  expect(res.status).toBe(200);
  await Promise.all([linked, updated]);
}

describe('a friend who arrives through a referral link and pays', () => {
  test('through the site link: the inviter gets exactly 10 % of the credits bought, once, also when the payment event comes twice', async () => {
    const inviter = await signUpWith();
    const code = (await summaryOf(inviter)).referral_code;
    expect((await summaryOf(inviter)).site_link).toMatch(new RegExp(`^https?://[^/]+/\\?ref=${code}$`));
    const friend = await signUpWith(code.toLowerCase());

    const succeeded = await pay(friend);
    await deliverToBilling(succeeded);
    await deliverToBilling(createEvent('payment.succeeded', 'billing', succeeded.data));

    expect(await referralEntries(inviter.id)).toEqual([
      { reason: 'referral_bonus', amount: 1500, description: 'Бонус за друга' },
    ]);
    expect(await creditsOf(inviter)).toBe(1500);
    expect(await summaryOf(inviter)).toMatchObject({ invited: 1, paying: 1, credits_earned: 1500, percent: 10 });
    expect(await creditsOf(friend)).toBe(15_000);
  });

  test('through the bot link: the same 10 %, and a later /start with another code changes nothing', async () => {
    const inviter = await signUpWith();
    const other = await signUpWith();
    const summary = await summaryOf(inviter);
    expect(summary.bot_start_payload).toBe(`ref_${summary.referral_code}`);
    const friend = await botUser(summary.referral_code);
    await api('POST', '/api/bot/users', {
      ...bot,
      body: { telegram_id: friend.telegramId, referral_code: (await summaryOf(other)).referral_code },
    });
    // The bot tells the inviter of the bonus from this event.
    const rewarded = busOf(stack, 'billing').waitFor(
      'published',
      (e) => e.type === 'referral.rewarded' && (e.data as ReferralRewardedData).friend_id === friend.id,
      20_000,
    );

    await pay(friend, 200);

    expect(await referralEntries(inviter.id)).toEqual([
      { reason: 'referral_bonus', amount: 2000, description: 'Бонус за друга' },
    ]);
    expect((await rewarded).data).toMatchObject({ referrer_id: inviter.id, friend_id: friend.id, credits: 2000 });
    expect(await summaryOf(other)).toMatchObject({ invited: 0, credits_earned: 0 });
    const users = await api<AdminUsersResponse>('GET', `/api/admin/users?referrer=${summary.referral_code}`, {
      token: adminToken,
    });
    expect(users.body.users.map((user) => user.id)).toEqual([friend.id]);
    expect(users.body.users[0]).toMatchObject({ referred_by: inviter.id });
  });

  test('a friend who registers but never pays earns nothing; admin sees who invited whom and the month tile', async () => {
    const inviter = await signUpWith();
    const code = (await summaryOf(inviter)).referral_code;
    const friend = await signUpWith(code);
    const before = (await api<AdminReferralStats>('GET', '/api/admin/referrals/stats', { token: adminToken })).body;

    expect(await summaryOf(inviter)).toMatchObject({ invited: 1, paying: 0, credits_earned: 0 });
    expect(await referralEntries(inviter.id)).toEqual([]);
    const email = (await api<{ email: string }>('GET', '/api/auth/profile', { token: inviter.token })).body.email;
    const users = await api<AdminUsersResponse>('GET', `/api/admin/users?referrer=${email}`, { token: adminToken });
    expect(users.body.users).toEqual([
      expect.objectContaining({ id: friend.id, referred_by: inviter.id, referrer: email }),
    ]);

    await pay(friend, 100);
    const after = (await api<AdminReferralStats>('GET', '/api/admin/referrals/stats', { token: adminToken })).body;
    expect(after.paying - before.paying).toBe(1);
    expect(after.credits_paid - before.credits_paid).toBe(1000);
    expect(after.invited).toBeGreaterThanOrEqual(1);
  });

  test('the bonuses from one friend stop at referral_max_credits_per_friend', async () => {
    await setSetting(stack, 'referral_max_credits_per_friend', '2000');
    try {
      const inviter = await signUpWith();
      const friend = await signUpWith((await summaryOf(inviter)).referral_code);
      await pay(friend, 150);
      await pay(friend, 150);
      await pay(friend, 150);

      expect((await referralEntries(inviter.id)).map((entry) => entry.amount)).toEqual([1500, 500]);
      expect(await summaryOf(inviter)).toMatchObject({ credits_earned: 2000, paying: 1 });
    } finally {
      await setSetting(stack, 'referral_max_credits_per_friend', '50000');
    }
  });
});

describe('a refunded payment takes its bonus back', () => {
  test('in full while the inviter still has the credits', async () => {
    const inviter = await signUpWith();
    const friend = await signUpWith((await summaryOf(inviter)).referral_code);
    const succeeded = await pay(friend);

    await deliverToBilling(refundOf(succeeded.data));

    expect(await referralEntries(inviter.id)).toEqual([
      { reason: 'referral_bonus', amount: 1500, description: 'Бонус за друга' },
      { reason: 'referral_revoked', amount: -1500, description: 'Возврат бонуса за друга' },
    ]);
    expect(await creditsOf(inviter)).toBe(1500 - 1500);
    expect(await summaryOf(inviter)).toMatchObject({ credits_earned: 0 });
  });

  /** The inviter's reward for a payment as billing keeps it. */
  async function rewardOf(paymentId: string) {
    const db = billing().deps.db as Kysely<{
      referral_rewards: { payment_id: string; revoked_credits: string; lost_credits: string; pending_credits: string };
    }>;
    const row = await db
      .selectFrom('referral_rewards')
      .select(['revoked_credits', 'lost_credits', 'pending_credits'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    return {
      revoked: Number(row.revoked_credits),
      lost: Number(row.lost_credits),
      pending: Number(row.pending_credits),
    };
  }

  /** A message the inviter's bot recorded under a hold, costing `cost`, as chat-history announces it. */
  function messageUnder(inviter: { id: number; telegramId: number }, holdId: string, cost: number) {
    return createEvent('message.recorded', 'chat-history', {
      message_id: 900_000_000 + Math.floor(Math.random() * 1e8),
      user_id: inviter.id,
      telegram_id: inviter.telegramId,
      username: null,
      user_name: null,
      model: 'gpt-4o-mini',
      status: 'success',
      input_tokens: 10,
      output_tokens: 10,
      input_cost: '0.000001500000',
      output_cost: '0.000006000000',
      total_cost: '0.000007500000',
      cost,
      user_message: 'Вопрос',
      bot_response: 'Ответ',
      error_message: null,
      image_path: null,
      image_count: 0,
      hold_id: holdId,
      created_at: new Date().toISOString(),
    });
  }

  /** An inviter whose friend paid 150 ₽ (a bonus of 1 500), with 1 000 of them held for a model call in progress. */
  async function inviterWithHeldBonus() {
    const inviter = await botUser();
    const friend = await signUpWith((await summaryOf(inviter)).referral_code);
    const succeeded = await pay(friend);
    const hold = await api<{ hold_id: string }>('POST', '/api/bot/holds', {
      ...bot,
      body: { telegram_id: inviter.telegramId, amount: 1000 },
    });
    expect(hold.status).toBe(201);
    return { inviter, succeeded, hold, refunded: refundOf(succeeded.data) };
  }

  test('held credits are taken when the hold is released: the whole bonus comes back, once', async () => {
    const { inviter, succeeded, hold, refunded } = await inviterWithHeldBonus();

    await deliverToBilling(refunded);
    await deliverToBilling(createEvent('payment.refunded', 'billing', refunded.data));

    expect((await referralEntries(inviter.id)).map((entry) => entry.amount)).toEqual([1500, -500]);
    await expect(rewardOf(succeeded.data.payment_id)).resolves.toEqual({ revoked: 500, lost: 0, pending: 1000 });

    // The call never happened: its hold is released, and the rest of the bonus goes with it.
    expect((await api('DELETE', `/api/bot/holds/${hold.body.hold_id}`, bot)).status).toBe(204);
    expect((await referralEntries(inviter.id)).map((entry) => entry.amount)).toEqual([1500, -500, -1000]);
    expect(await creditsOf(inviter)).toBe(0);
    await expect(rewardOf(succeeded.data.payment_id)).resolves.toEqual({ revoked: 1500, lost: 0, pending: 0 });
    expect(await summaryOf(inviter)).toMatchObject({ credits_earned: 0 });
  });

  test('never below zero: what the held call spent is lost, the rest of the hold taken when it is charged', async () => {
    const { inviter, succeeded, hold, refunded } = await inviterWithHeldBonus();
    await deliverToBilling(refunded);

    // The call costs 600 of its 1 000: 400 come back to be taken, 600 were spent before anyone could.
    await deliverToBilling(messageUnder(inviter, hold.body.hold_id, 600));
    expect((await referralEntries(inviter.id)).map((entry) => entry.amount)).toEqual([1500, -500, -400]);
    expect(await creditsOf(inviter)).toBe(0);
    await expect(rewardOf(succeeded.data.payment_id)).resolves.toEqual({ revoked: 900, lost: 600, pending: 0 });
  });
});

describe('nobody earns from themselves through linking', () => {
  test('site account first: its own Telegram account started with its bot link, linked, pays nothing', async () => {
    const web = await signUpWith();
    const telegram = await botUser((await summaryOf(web)).referral_code);
    await linkTelegram(web, telegram.telegramId);

    await pay(web);

    expect(await referralEntries(web.id)).toEqual([]);
    expect(await summaryOf(web)).toMatchObject({ invited: 0, credits_earned: 0 });
    const users = await api<AdminUsersResponse>('GET', `/api/admin/users?referrer=*&email=`, { token: adminToken });
    expect(users.body.users.find((user) => user.id === web.id)).toBeUndefined();
  });

  test('Telegram first: a site account registered through its own bot account’s link; a bonus paid before linking is taken back', async () => {
    const telegram = await botUser();
    const web = await signUpWith((await summaryOf(telegram)).referral_code);
    await pay(web);
    expect((await referralEntries(telegram.id)).map((entry) => entry.amount)).toEqual([1500]);

    await linkTelegram(web, telegram.telegramId);
    await pay(web);

    expect((await referralEntries(web.id)).map((entry) => entry.amount)).toEqual([-1500]);
    expect(await summaryOf(web)).toMatchObject({ invited: 0, credits_earned: 0 });
    expect(await creditsOf(web)).toBe(30_000);
  });

  test('a real friend’s inviter is kept when the friend links their own two accounts', async () => {
    const inviter = await signUpWith();
    const friendBot = await botUser((await summaryOf(inviter)).referral_code);
    const friendWeb = await signUpWith();
    await linkTelegram(friendWeb, friendBot.telegramId);

    await pay(friendWeb, 100);

    expect((await referralEntries(inviter.id)).map((entry) => entry.amount)).toEqual([1000]);
    expect(await summaryOf(inviter)).toMatchObject({ invited: 1, paying: 1 });
  });
});

describe('promo code guessing through the gateway', () => {
  test('is throttled per user (10 attempts a window) and per address (30), with 429 and Retry-After', async () => {
    const guess = (token: string, n: number) =>
      api('POST', '/api/billing/promo-codes/redeem', { token, body: { code: `GUESS${n}` } });
    const [first, second, third, late] = await Promise.all([signUpWith(), signUpWith(), signUpWith(), signUpWith()]);

    const firstAnswers = [];
    for (let n = 0; n < 11; n++) firstAnswers.push((await guess(first.token, n)).status);
    expect(firstAnswers).toEqual([...Array(10).fill(404), 429]);
    for (let n = 0; n < 10; n++) expect((await guess(second.token, n)).status).toBe(404);
    for (let n = 0; n < 9; n++) expect((await guess(third.token, n)).status).toBe(404);

    // 30 attempts came from this address: anyone else here now waits too.
    const refused = await guess(late.token, 0);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
