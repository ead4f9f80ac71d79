import type { CreatePaymentResponse, CreditsChangedData, EventData, EventInput, EventType } from '@gpt/contracts';
import { signAccessToken, type Env } from '@gpt/kit';
import {
  createEvent,
  eventProducers,
  publishRaw,
  sampleUserRegistered,
  startTestService,
  type TestService,
} from '@gpt/kit/testing';
import { loadBillingConfig, type BillingConfig } from '../../src/config';
import type { BillingDatabase } from '../../src/data/schema';
import type { BillingDeps } from '../../src/deps';
import { billingService } from '../../src/service';
import { FAKE_SECRET_KEY, FAKE_SHOP_ID, FakeYookassa } from './fake-yookassa';

export type Billing = TestService<BillingConfig, BillingDatabase, BillingDeps>;

let nextUserId = 1000;
let nextTelegramId = 7_700_000;

/** `user.registered` of a web user as auth publishes it. */
export const registered = (
  id: number,
  overrides: Partial<EventData<'user.registered'>> = {},
): EventInput<'user.registered'> =>
  sampleUserRegistered(id, { username: `user${id}`, first_name: 'Иван', last_name: 'Петров', ...overrides });

/**
 * Billing on real PostgreSQL, RabbitMQ and Redis, talking to a fake YooKassa on localhost; events
 * from the other services are published on billing's exchange as those services would. The
 * welcome grant starts off (`welcome_credits` 0, as chat-history would announce it), so a new
 * user has nothing until a test turns it on with `setWelcomeCredits`.
 */
export async function startBillingHarness(env: Env = {}) {
  const yookassa = await new FakeYookassa().start();
  const billing: Billing = await startTestService(billingService, loadBillingConfig, {
    YOOKASSA_API_URL: yookassa.url,
    YOOKASSA_SHOP_ID: FAKE_SHOP_ID,
    YOOKASSA_SECRET_KEY: FAKE_SECRET_KEY,
    SITE_URL: 'https://site.example',
    ...env,
  });
  const { JWT_SECRET, BOT_API_KEY, AMQP_EXCHANGE } = billing.deps.config;
  let settingVersion = 0;

  const harness = {
    billing,
    yookassa,
    url: billing.url,
    webhookUrl: `${billing.url}/api/billing/webhooks/yookassa`,
    botKey: BOT_API_KEY,

    /** Publishes an envelope on billing's exchange (routing key = type), as the producer's relay does. */
    async publish(event: { id: string; type: EventType }) {
      await publishRaw(AMQP_EXCHANGE, event.type, event);
      return event;
    },

    /** A new event of `type` from its producer. */
    event: <T extends EventType>(type: T, data: EventInput<T>) => createEvent(type, eventProducers[type], data),

    /** Waits until billing has consumed (acknowledged) the event. */
    consumed: (eventId: string) => billing.deps.bus.waitFor('acked', (e) => e.id === eventId, 20_000),

    /** Publishes an event as its producer would and waits until billing has consumed it. */
    async deliver<T extends EventType>(type: T, data: EventInput<T>) {
      const event = await harness.publish(harness.event(type, data));
      await harness.consumed(event.id);
      return event;
    },

    /**
     * A user as auth announces a confirmed account (user.registered, then user.confirmed: a site user
     * who followed the e-mail link from `ip`, or a bot user); `confirmed: false` stops at the sign-up.
     * Answers its id.
     */
    async registerUser(
      overrides: Partial<EventData<'user.registered'>> = {},
      options: { confirmed?: boolean; ip?: string | null } = {},
    ): Promise<number> {
      const id = overrides.user_id ?? nextUserId++;
      const data = registered(id, overrides);
      await harness.deliver('user.registered', data);
      if (options.confirmed === false) return id;
      if (data.source === 'web') await harness.confirmUser(id, options.ip ?? null, 'email');
      else await harness.confirmUser(id, null, 'telegram');
      return id;
    },

    /** A Telegram user as auth announces them (first seen by the bot, no e-mail): their ids. */
    async registerTelegramUser(): Promise<{ userId: number; telegramId: number }> {
      const telegramId = nextTelegramId++;
      const userId = await harness.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
      return { userId, telegramId };
    },

    /** auth's `user.confirmed` of the user, with the address they signed up from. */
    confirmUser: (userId: number, ip: string | null, via: 'email' | 'telegram' = 'email') =>
      harness.deliver('user.confirmed', { user_id: userId, at: new Date().toISOString(), via, ip }),

    /** The next `credits.changed` billing publishes for the user with this reason. */
    publishedChange: (userId: number, reason: string) =>
      billing.deps.bus
        .waitFor('published', (e) => {
          const data = e.data as CreditsChangedData;
          return e.type === 'credits.changed' && data.user_id === userId && data.reason === reason;
        })
        .then((e) => e.data as CreditsChangedData),

    /** chat-history's `setting.changed` of `welcome_credits`, consumed by billing. */
    setWelcomeCredits: (credits: number) => harness.setWelcomeSetting('welcome_credits', credits),

    /** chat-history's `setting.changed` of a welcome setting, consumed by billing. */
    setWelcomeSetting: (key: 'welcome_credits' | 'welcome_per_address_daily', count: number) =>
      harness.deliver('setting.changed', {
        key,
        value: String(count),
        version: ++settingVersion,
        changed_at: new Date().toISOString(),
      }),

    userToken: (userId: number) => signAccessToken({ sub: String(userId), role: 'user', ver: 0 }, JWT_SECRET),
    adminToken: (adminId = 1) => signAccessToken({ sub: String(adminId), role: 'admin', ver: 0 }, JWT_SECRET),

    /** JSON over HTTP to billing; answers status and parsed body. */
    async call<T = Record<string, unknown>>(
      method: string,
      path: string,
      options: { token?: string; bot?: boolean; body?: unknown; headers?: Record<string, string> } = {},
    ): Promise<{ status: number; body: T }> {
      const headers: Record<string, string> = {};
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      if (options.bot) headers['X-Bot-Key'] = BOT_API_KEY;
      const res = await fetch(`${billing.url}${path}`, {
        method,
        headers: { ...headers, ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },

    /**
     * A payment the user (a new one unless given) starts on the site, for an amount or a tariff:
     * the answer, our ids of it and the provider's (set when the provider created it).
     */
    async topUp(
      target: { amount?: string | number; tariff_id?: number; auto_renew?: boolean; consent_version?: string },
      userId?: number,
    ) {
      const payer = userId ?? (await harness.registerUser());
      const res = await harness.call<CreatePaymentResponse>('POST', '/api/billing/payments', {
        token: harness.userToken(payer),
        body: target,
      });
      if (res.status !== 201) throw new Error(`the payment was answered ${res.status}: ${JSON.stringify(res.body)}`);
      const row = await billing.deps.db
        .selectFrom('payments')
        .select(['id', 'yookassa_payment_id'])
        .where('payment_id', '=', res.body.payment_id)
        .executeTakeFirstOrThrow();
      return {
        userId: payer,
        payment: res.body,
        paymentId: res.body.payment_id,
        id: row.id,
        remoteId: row.yookassa_payment_id!,
      };
    },

    /** A payment the user makes on the site and pays at YooKassa (the notification arrives); answers our row id. */
    async payByCard(userId: number, target: { amount?: string; tariff_id?: number }): Promise<number> {
      const { id, remoteId } = await harness.topUp(target, userId);
      yookassa.succeed(remoteId);
      const notified = await yookassa.notify(harness.webhookUrl, remoteId);
      if (notified.status !== 200) throw new Error(`the notification was answered ${notified.status}`);
      return id;
    },

    async balance(userId: number) {
      const { body } = await harness.call<{ credits: number; included_credits: number; version: number }>(
        'GET',
        '/api/billing/balance',
        { token: harness.userToken(userId) },
      );
      return body;
    },

    async stop() {
      await billing.stop();
      await yookassa.stop();
    },
  };
  await harness.setWelcomeCredits(0);
  return harness;
}

export type BillingHarness = Awaited<ReturnType<typeof startBillingHarness>>;
