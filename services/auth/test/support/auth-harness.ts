import type { EventSchemas, EventType } from '@gpt/contracts';
import type { Env } from '@gpt/kit';
import {
  createEvent,
  eventProducers,
  publishRaw,
  startTestService,
  TEST_SECRETS,
  type TestService,
  uniqueName,
} from '@gpt/kit/testing';
import type { z } from 'zod';
import { type AuthConfig, loadAuthConfig } from '../../src/config';
import type { AuthDatabase } from '../../src/data/schema';
import { authService } from '../../src/service';

export const BOT_KEY = TEST_SECRETS.BOT_API_KEY;
/** Cheaper argon2id than production, so the suites spend their time on behaviour. */
const FAST_HASHING: Env = { ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1' };

export type AuthService = TestService<AuthConfig, AuthDatabase>;

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** A JSON call against a base URL; `token` adds the bearer header, `botKey` the bot's. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; botKey?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.botKey) headers['X-Bot-Key'] = options.botKey;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export interface Session {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** The auth service on a fresh database with its own admin; `admin` is signed in. */
export async function startAuth(env: Env = {}) {
  const admin = { email: `${uniqueName('admin')}@example.com`, password: 'admin-secret' };
  const auth: AuthService = await startTestService(authService, loadAuthConfig, {
    ...FAST_HASHING,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    BILLING_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof call>[3]) =>
    call<T>(auth.url, method, path, options);

  /** Logs in; throws unless it worked. */
  async function login(email: string, password: string): Promise<Session> {
    const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/login', {
      body: { email, password },
    });
    if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.user.id, email, password, token: res.body.token };
  }

  /** Registers a fresh user (unique e-mail) through the API. */
  async function buildUser(overrides: { email?: string; password?: string; utm_source?: string } = {}) {
    const email = overrides.email ?? `${uniqueName('user')}@example.com`;
    const password = overrides.password ?? 'password1';
    const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/register', {
      body: { email, password, utm_source: overrides.utm_source },
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.user.id, email: email.toLowerCase(), password, token: res.body.token } satisfies Session;
  }

  /** A Telegram user as the bot reports it. */
  async function buildTelegramUser(overrides: Record<string, unknown> = {}) {
    const telegram_id = Number(overrides.telegram_id ?? 1_000_000 + Math.floor(Math.random() * 1e9));
    const res = await api<{ id: number; telegram_id: number }>('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id, username: `tg_${telegram_id}`, first_name: 'Иван', last_name: 'Петров', ...overrides },
    });
    if (res.status !== 200) throw new Error(`bot user failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  const adminSession = await login(admin.email, admin.password);
  return { auth, api, login, buildUser, buildTelegramUser, admin: adminSession, stop: () => auth.stop() };
}

export type AuthHarness = Awaited<ReturnType<typeof startAuth>>;

/** Publishes an event as its producer would; returns the envelope so the test can wait for it. */
export async function publishEvent<T extends EventType>(
  exchange: string,
  type: T,
  data: z.input<EventSchemas[T]>,
  options: { id?: string } = {},
) {
  const envelope = createEvent(type, eventProducers[type], data, { id: options.id });
  await publishRaw(exchange, type, envelope);
  return envelope;
}

/** Billing's snapshot as `credits.changed` carries it; waits until auth has applied it. */
export async function reportBalance(
  h: AuthHarness,
  userId: number,
  balance: {
    credits?: number;
    included_credits?: number;
    held_credits?: number;
    tariff?: { id: number; name: string; monthly_price: string; end_date: string | null };
    money_deposited?: string;
    version: number;
  },
) {
  const event = await publishEvent(h.auth.deps.config.AMQP_EXCHANGE, 'credits.changed', {
    user_id: userId,
    credits: balance.credits ?? 0,
    included_credits: balance.included_credits ?? 0,
    held_credits: balance.held_credits ?? 0,
    tariff: balance.tariff ?? BASE_TARIFF,
    money_deposited: balance.money_deposited ?? '0.00',
    version: balance.version,
    reason: 'payment',
    reference: `payment:${crypto.randomUUID()}`,
    changed_at: new Date().toISOString(),
  });
  await h.auth.deps.bus.waitFor('acked', (e) => e.id === event.id);
  return event;
}

export const BASE_TARIFF = { id: 1, name: 'Base', monthly_price: '0.00', end_date: null };
export const PREMIUM_TARIFF = { id: 2, name: 'Premium', monthly_price: '350.00', end_date: '2030-01-31T00:00:00.000Z' };

/** A message as chat-history records it; waits until auth has counted it. */
export async function reportMessage(h: AuthHarness, userId: number, totalCost: string) {
  const event = await publishEvent(h.auth.deps.config.AMQP_EXCHANGE, 'message.recorded', {
    message_id: Math.floor(Math.random() * 1e9) + 1,
    user_id: userId,
    telegram_id: null,
    username: null,
    model: 'gpt-4o-mini',
    status: 'success',
    input_tokens: 10,
    output_tokens: 20,
    input_cost: '0.000100',
    output_cost: '0.000200',
    total_cost: totalCost,
    cost: 3,
    user_message: 'Привет',
    bot_response: 'Здравствуйте',
    error_message: null,
    image_path: null,
    created_at: new Date().toISOString(),
  });
  await h.auth.deps.bus.waitFor('acked', (e) => e.id === event.id);
  return event;
}
