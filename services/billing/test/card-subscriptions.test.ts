import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  RENEWAL_CONSENT_VERSION,
  type SubscriptionNoticeData,
  type UserSubscription,
  type UserSubscriptionsResponse,
} from '@gpt/contracts';
import { sql } from 'kysely';
import { expireTariffs } from '../src/domain/expire-tariffs';
import { runRenewals } from '../src/domain/renew-subscription';
import { sendReminders } from '../src/domain/subscriptions';
import { addOneMonth } from '../src/domain/tariff-period';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;

beforeAll(async () => {
  // The job's own rounds stay out of the way: each test runs the renewals itself at the moment it means.
  h = await startBillingHarness({ RENEWAL_INTERVAL_SEC: '3600' });
});
afterAll(() => h.stop());

const PREMIUM = 2;
const DAY = 86_400_000;
const renewals = (now = new Date()) => runRenewals(h.billing.deps, h.billing.deps.providers, now);

/** The user buys Premium on the site with «Продлевать автоматически» ticked and pays at YooKassa. */
async function subscribe(userId?: number) {
  const {
    userId: payer,
    remoteId,
    paymentId,
  } = await h.topUp(
    {
      tariff_id: PREMIUM,
      auto_renew: true,
      consent_version: RENEWAL_CONSENT_VERSION,
    },
    userId,
  );
  h.yookassa.succeed(remoteId);
  expect((await h.yookassa.notify(h.webhookUrl, remoteId)).status).toBe(200);
  const [subscription] = await subscriptionsOf(payer);
  const methodId = h.yookassa.payments.get(remoteId)!.payment_method!.id;
  return { userId: payer, subscription: subscription!, methodId, paymentId };
}

async function subscriptionsOf(userId: number): Promise<UserSubscription[]> {
  const res = await h.call<UserSubscriptionsResponse>('GET', '/api/billing/subscriptions', {
    token: h.userToken(userId),
  });
  expect(res.status).toBe(200);
  return res.body.subscriptions;
}

/** Moves the subscription's paid end (and the balance's tariff end with it) to `end`, as if time had passed. */
async function endsAt(subscriptionId: number, userId: number, end: Date) {
  const { db } = h.billing.deps;
  await db.updateTable('subscriptions').set({ paid_until: end }).where('id', '=', subscriptionId).execute();
  await db.updateTable('balances').set({ tariff_end_date: end }).where('user_id', '=', userId).execute();
}

/** The notices billing wrote for the subscription, oldest first. */
async function noticesOf(subscriptionId: number): Promise<SubscriptionNoticeData[]> {
  const rows = await h.billing.deps.db
    .selectFrom('outbox')
    .select('payload')
    .where('type', '=', 'subscription.notice')
    .where(sql<string>`(payload::jsonb -> 'data' ->> 'subscription_id')`, '=', String(subscriptionId))
    .orderBy('seq')
    .execute();
  return rows.map((row) => (JSON.parse(row.payload) as { data: SubscriptionNoticeData }).data);
}

const kinds = async (subscriptionId: number) => (await noticesOf(subscriptionId)).map((notice) => notice.kind);

describe('consent and the saved card', () => {
  test('without the tick the card is not saved and nothing renews; with it the consent is recorded and the subscription starts once paid', async () => {
    const plain = await h.topUp({ tariff_id: PREMIUM });
    expect(h.yookassa.requestsTo('POST', '/payments').at(-1)!.body).not.toHaveProperty('save_payment_method');
    h.yookassa.succeed(plain.remoteId);
    await h.yookassa.notify(h.webhookUrl, plain.remoteId);
    expect(await subscriptionsOf(plain.userId)).toEqual([]);
    const noConsent = await h.billing.deps.db
      .selectFrom('subscription_consents')
      .selectAll()
      .where('payment_id', '=', plain.paymentId)
      .execute();
    expect(noConsent).toEqual([]);

    const before = Date.now();
    const { userId, subscription, paymentId } = await subscribe();
    const created = h.yookassa
      .requestsTo('POST', '/payments')
      .find((r) => (r.body as { metadata?: { payment_id?: string } }).metadata?.payment_id === paymentId);
    expect(created!.body).toMatchObject({
      save_payment_method: true,
      confirmation: { type: 'redirect' },
    });
    const consent = await h.billing.deps.db
      .selectFrom('subscription_consents')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(consent).toMatchObject({
      user_id: userId,
      tariff_id: PREMIUM,
      version: RENEWAL_CONSENT_VERSION,
      source: 'web',
    });
    expect(consent.given_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(consent.text).toContain('350,00');
    expect(consent.text).toContain('Premium');
    expect(consent.text).toContain('/subscription');
    expect(consent.text).toContain('/dashboard');

    const paidUntil = new Date(subscription.paid_until);
    expect(paidUntil.getTime()).toBeGreaterThanOrEqual(addOneMonth(new Date(before)).getTime());
    expect(subscription).toMatchObject({
      status: 'active',
      method: 'card',
      tariff_name: 'Premium',
      price: '350.00',
      card: '•••• 4444',
      next_charge_at: new Date(paidUntil.getTime() - 24 * 3_600_000).toISOString(),
    });
    expect(await kinds(subscription.id)).toEqual(['started']);
  });

  test('a consent of another version is refused, and a second renewing tariff too', async () => {
    const userId = await h.registerUser();
    const stale = await h.call('POST', '/api/billing/payments', {
      token: h.userToken(userId),
      body: {
        tariff_id: PREMIUM,
        auto_renew: true,
        consent_version: '2020-01-01',
      },
    });
    expect(stale).toMatchObject({
      status: 400,
      body: { code: 'consent_outdated' },
    });

    await subscribe(userId);
    const again = await h.call('POST', '/api/billing/payments', {
      token: h.userToken(userId),
      body: {
        tariff_id: 3,
        auto_renew: true,
        consent_version: RENEWAL_CONSENT_VERSION,
      },
    });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'subscription_exists' },
    });
  });

  test('the consent text the site shows names the price, the day of the first charge and how to cancel', async () => {
    const userId = await h.registerUser();
    const res = await h.call<{
      text: string;
      version: string;
      next_charge_at: string;
    }>('GET', `/api/billing/subscriptions/consent/${PREMIUM}`, {
      token: h.userToken(userId),
    });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(RENEWAL_CONSENT_VERSION);
    const nextCharge = new Date(res.body.next_charge_at);
    expect(Math.abs(nextCharge.getTime() - (addOneMonth(new Date()).getTime() - DAY))).toBeLessThan(60_000);
    expect(res.body.text).toMatch(/Следующее списание — \d+ [а-я]+ \d{4} г\./);
  });
});

describe('renewal', () => {
  test('three renewals at once (the job twice and an admin) make one charge, one extension and one grant', async () => {
    const { userId, subscription, methodId } = await subscribe();
    const end = new Date(Date.now() + 3_600_000);
    await endsAt(subscription.id, userId, end);

    const admin = h.call('POST', `/api/admin/subscriptions/${subscription.id}/renew`, {
      token: h.adminToken(),
      headers: { 'Idempotency-Key': `renew-${subscription.id}` },
      body: { reason: 'проверка' },
    });
    const [, , adminAnswer] = await Promise.all([renewals(), renewals(), admin]);
    // The admin joins the charge the job started, or comes once it is settled and is told the month is paid.
    if (adminAnswer.status !== 200) {
      expect(adminAnswer).toMatchObject({ status: 409, body: { code: 'subscription_period_paid' } });
    }

    const charges = h.yookassa.chargesOf(methodId);
    expect(charges).toHaveLength(1);
    const charge = h.yookassa
      .requestsTo('POST', '/payments')
      .find((r) => (r.body as { payment_method_id?: string }).payment_method_id === methodId)!;
    expect(charge.headers['idempotence-key']).toBe(`renewal-${subscription.id}-2-1`);
    expect(charge.body).toMatchObject({
      capture: true,
      amount: { value: '350.00', currency: 'RUB' },
      receipt: {
        customer: { email: expect.any(String) },
        items: [expect.objectContaining({ payment_subject: 'service' })],
      },
    });
    expect(charge.body).not.toHaveProperty('confirmation');

    // The notification of the charge comes too, twice: nothing more happens.
    await h.yookassa.notify(h.webhookUrl, charges[0]!.id);
    await h.yookassa.notify(h.webhookUrl, charges[0]!.id);
    await renewals();

    const entries = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select(['reference', 'amount'])
      .where('user_id', '=', userId)
      .where('reference', 'like', 'renewal:%')
      .execute();
    expect(entries).toEqual([{ reference: `renewal:${subscription.id}:2`, amount: '70000' }]);
    const balance = (await h.balance(userId)) as unknown as {
      included_credits: number;
      tariff: { end_date: string };
    };
    expect(balance.included_credits).toBe(140_000);
    expect(balance.tariff.end_date).toBe(addOneMonth(end).toISOString());
    const [renewed] = await subscriptionsOf(userId);
    expect(renewed).toMatchObject({
      status: 'active',
      paid_until: addOneMonth(end).toISOString(),
    });
    expect(await kinds(subscription.id)).toEqual(['started', 'renewed']);

    // «Продлить сейчас» again: the next month is paid already.
    const more = await h.call('POST', `/api/admin/subscriptions/${subscription.id}/renew`, {
      token: h.adminToken(),
      headers: { 'Idempotency-Key': `renew-again-${subscription.id}` },
      body: {},
    });
    expect(more).toMatchObject({
      status: 409,
      body: { code: 'subscription_period_paid' },
    });
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(1);
  });

  test('a month bought by hand meanwhile moves the next charge after it; the renewal then extends from its end', async () => {
    const { userId, subscription, methodId } = await subscribe();
    await h.payByCard(userId, { tariff_id: PREMIUM });
    const [moved] = await subscriptionsOf(userId);
    const bought = addOneMonth(new Date(subscription.paid_until));
    expect(moved!.paid_until).toBe(bought.toISOString());
    await renewals(new Date(new Date(subscription.paid_until).getTime() - 3_600_000));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(0);

    await renewals(new Date(bought.getTime() - 3_600_000));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(1);
    const balance = (await h.balance(userId)) as unknown as { tariff: { end_date: string } };
    expect(balance.tariff.end_date).toBe(addOneMonth(bought).toISOString());
  });

  test('a reminder comes renewal_reminder_days before the charge, once, with the amount, the day and the cancel link', async () => {
    const { userId, subscription } = await subscribe();
    const end = new Date(Date.now() + 3 * DAY);
    await endsAt(subscription.id, userId, end);
    await sendReminders(h.billing.deps);
    await sendReminders(h.billing.deps);
    const notices = await noticesOf(subscription.id);
    expect(notices.map((n) => n.kind)).toEqual(['started', 'reminder']);
    expect(notices[1]).toMatchObject({
      amount: '350.00',
      cancel_url: 'https://site.example/dashboard',
      charge_at: new Date(end.getTime() - DAY).toISOString(),
    });
  });
});

describe('declined renewals', () => {
  test('insufficient funds: told at once, retried after 1 and 3 days, the tariff kept for the grace period, then ended', async () => {
    const { userId, subscription, methodId } = await subscribe();
    const end = new Date(Date.now() + 3_600_000);
    await endsAt(subscription.id, userId, end);
    h.yookassa.declineNextCharges(methodId, 'insufficient_funds', 'insufficient_funds', 'insufficient_funds');

    await renewals();
    const [declined] = await subscriptionsOf(userId);
    const firstDecline = Date.now();
    expect(declined).toMatchObject({
      status: 'past_due',
      last_failure: 'insufficient_funds',
    });
    expect(declined!.grace_until).toBe(new Date(end.getTime() + 3 * DAY).toISOString());
    const retryAt = new Date(declined!.next_charge_at!).getTime();
    expect(Math.abs(retryAt - (firstDecline + DAY))).toBeLessThan(10_000);
    const told = await noticesOf(subscription.id);
    expect(told.at(-1)).toMatchObject({
      kind: 'declined',
      reason: 'insufficient_funds',
      charge_at: declined!.next_charge_at,
    });

    // Not yet due: nothing is tried.
    await renewals(new Date(firstDecline + DAY - 60_000));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(1);
    await renewals(new Date(firstDecline + DAY + 60_000));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(2);
    const [second] = await subscriptionsOf(userId);
    expect(Math.abs(new Date(second!.next_charge_at!).getTime() - (firstDecline + 3 * DAY))).toBeLessThan(10_000);

    // The tariff stays during the grace period, past its paid end.
    await expireTariffs(h.billing.deps, new Date(end.getTime() + DAY));
    expect(((await h.balance(userId)) as unknown as { tariff: { id: number } }).tariff.id).toBe(PREMIUM);

    await renewals(new Date(firstDecline + 3 * DAY + 60_000));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(3);
    const [third] = await subscriptionsOf(userId);
    expect(third).toMatchObject({ status: 'past_due', next_charge_at: null });
    await renewals(new Date(firstDecline + 3 * DAY + 2 * 60_000));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(3);

    const afterGrace = new Date(end.getTime() + 3 * DAY + 60_000);
    await renewals(afterGrace);
    const [ended] = await subscriptionsOf(userId);
    expect(ended).toMatchObject({ status: 'ended', next_charge_at: null });
    expect(await kinds(subscription.id)).toEqual(['started', 'declined', 'declined', 'declined', 'ended']);
    await expireTariffs(h.billing.deps, afterGrace);
    expect(((await h.balance(userId)) as unknown as { tariff: { id: number } }).tariff.id).toBe(1);
  });

  test('a revoked permission is never retried: the user is asked for another card', async () => {
    const { userId, subscription, methodId } = await subscribe();
    await endsAt(subscription.id, userId, new Date(Date.now() + 3_600_000));
    h.yookassa.declineNextCharges(methodId, 'permission_revoked');
    await renewals();
    const [ended] = await subscriptionsOf(userId);
    expect(ended).toMatchObject({
      status: 'ended',
      needs_new_card: true,
      next_charge_at: null,
    });
    expect((await noticesOf(subscription.id)).at(-1)).toMatchObject({
      kind: 'card_needed',
      reason: 'permission_revoked',
    });
    for (const days of [1, 3, 5]) await renewals(new Date(Date.now() + days * DAY));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(1);
  });

  test('an expired card is not retried either', async () => {
    const { userId, subscription, methodId } = await subscribe();
    await endsAt(subscription.id, userId, new Date(Date.now() + 3_600_000));
    h.yookassa.declineNextCharges(methodId, 'card_expired');
    await renewals();
    await renewals(new Date(Date.now() + 2 * DAY));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(1);
    expect((await subscriptionsOf(userId))[0]).toMatchObject({
      status: 'ended',
      needs_new_card: true,
    });
  });
});

describe('cancelling', () => {
  test('«Отменить автопродление»: no charge is attempted again, the tariff lasts to its paid end', async () => {
    const { userId, subscription, methodId } = await subscribe();
    const stranger = await h.registerUser();
    expect(
      (await h.call('DELETE', `/api/billing/subscriptions/${subscription.id}`, { token: h.userToken(stranger) }))
        .status,
    ).toBe(404);

    const res = await h.call<UserSubscription>('DELETE', `/api/billing/subscriptions/${subscription.id}`, {
      token: h.userToken(userId),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'canceled',
      next_charge_at: null,
      card: '•••• 4444',
    });
    const end = new Date(Date.now() + 3_600_000);
    await endsAt(subscription.id, userId, end);
    await renewals();
    await renewals(new Date(Date.now() + 5 * DAY));
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(0);
    expect(await kinds(subscription.id)).toEqual(['started', 'canceled']);
    const again = await h.call('DELETE', `/api/billing/subscriptions/${subscription.id}`, {
      token: h.userToken(userId),
    });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'subscription_not_renewing' },
    });
  });

  test('«Удалить карту»: the card is erased and never charged, even by an admin', async () => {
    const { userId, subscription, methodId } = await subscribe();
    const res = await h.call<UserSubscription>('DELETE', `/api/billing/subscriptions/${subscription.id}/card`, {
      token: h.userToken(userId),
    });
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'canceled', card: null },
    });
    const row = await h.billing.deps.db
      .selectFrom('subscriptions')
      .select('payment_method_id')
      .where('id', '=', subscription.id)
      .executeTakeFirstOrThrow();
    expect(row.payment_method_id).toBeNull();
    await endsAt(subscription.id, userId, new Date(Date.now() + 3_600_000));
    await renewals();
    const admin = await h.call('POST', `/api/admin/subscriptions/${subscription.id}/renew`, {
      token: h.adminToken(),
      body: {},
    });
    expect(admin.status).toBe(409);
    expect(h.yookassa.chargesOf(methodId)).toHaveLength(0);
  });
});
