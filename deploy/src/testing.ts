import { authService } from '@gpt/auth';
import { billingService } from '@gpt/billing';
import { createBotService } from '@gpt/bot';
import { chatHistoryService } from '@gpt/chat-history';
import { contentService } from '@gpt/content';
import { createLogger, serviceMigrations, type Env } from '@gpt/kit';
import { metricsService } from '@gpt/metrics';
import {
  createTestDatabase,
  deleteTestBroker,
  dropTestDatabase,
  type FakeMailbox,
  TEST_SECRETS,
  testInfra,
  uniqueName,
} from '@gpt/kit/testing';
import { startStack, type Stack } from './stack';

/** Each service's migrations, for the databases of a stack, copied already migrated. */
const MIGRATIONS = Object.fromEntries(
  [authService, contentService, billingService, chatHistoryService, metricsService, createBotService()].map(
    (definition) => [definition.name, serviceMigrations(definition)],
  ),
);
const SERVICES = Object.keys(MIGRATIONS);

export interface TestStack extends Stack {
  /** The gateway's base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The admin created at start. */
  admin: { email: string; password: string };
}

/**
 * The whole product for a test: every service on a fresh database of the test PostgreSQL, one
 * RabbitMQ exchange of its own, the test Redis, and the gateway serving the built web app.
 */
export async function startTestStack(env: Env = {}): Promise<TestStack> {
  const { replicas, close } = await startReplicas(1, env, 'migrated');
  return { ...replicas[0]!, close };
}

/**
 * `count` copies of the whole product started at once, as replicas of every process are: each with
 * its own gateway and services, all on the same fresh, empty databases (migrated and seeded by whichever
 * replica comes first), exchange and Redis key prefix. A replica's `close` stops that replica; `close`
 * stops them all and removes what they shared.
 */
export const startTestReplicas = (count: number, env: Env = {}) => startReplicas(count, env, 'empty');

async function startReplicas(
  count: number,
  env: Env,
  databases: 'empty' | 'migrated',
): Promise<{ replicas: TestStack[]; close(): Promise<void> }> {
  const admin = { email: `${uniqueName('admin')}@example.com`, password: 'admin12345' };
  // A test that prepares the broker first names the exchange; it is removed at the end all the same.
  const exchange = env.AMQP_EXCHANGE ?? uniqueName('test.events');
  const urls = await Promise.all(
    SERVICES.map((name) =>
      createTestDatabase(name.replace('-', '_'), databases === 'migrated' ? MIGRATIONS[name] : undefined),
    ),
  );
  const shared: Env = {
    LOG_LEVEL: 'silent',
    // A free port for the gateway too, so test files with stacks of their own run side by side.
    PORT: '0',
    AMQP_URL: testInfra.amqpUrl,
    AMQP_EXCHANGE: exchange,
    // Classic queues: a suite declares thousands; the replicas test asks for quorum ones.
    AMQP_QUEUE_TYPE: 'classic',
    REDIS_URL: testInfra.redisUrl,
    // Six services and three test files at a time (jest.config.js) stay inside PostgreSQL's 100 connections.
    DATABASE_POOL_SIZE: count > 1 ? '2' : '4',
    REDIS_KEY_PREFIX: `${uniqueName('stack')}:`,
    // The bot's throttler at ten times Telegram's pace (refused in production): the pace itself is tested
    // against the fake Telegram of the bot's tests, whose flood limits are sped up alike (docs/bot.md).
    TELEGRAM_TEST_SPEEDUP: '10',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...TEST_SECRETS,
    ...Object.fromEntries(SERVICES.map((name, i) => [`${name.toUpperCase().replace('-', '_')}_DATABASE_URL`, urls[i]])),
    ...env,
  };
  // TEST_LOG_LEVEL=debug shows what the stack logs while a test runs.
  const logger = createLogger({ name: 'test-stack', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const started = await Promise.allSettled(Array.from({ length: count }, () => startStack(shared, logger)));
  const stacks = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const removeShared = async () => {
    await Promise.all(urls.map(dropTestDatabase));
    await deleteTestBroker(exchange);
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(stacks.map((stack) => stack.close()));
    await removeShared();
    throw failed.reason;
  }
  const replicas = stacks.map((stack): TestStack => {
    let closing: Promise<void> | undefined;
    return { ...stack, url: stack.gateway.url, admin, close: () => (closing ??= stack.close()) };
  });
  return {
    replicas,
    async close() {
      await Promise.all(replicas.map((replica) => replica.close()));
      await removeShared();
    },
  };
}

/**
 * Sets the welcome grant (`welcome_credits`) as an admin does on /admin/sys_vals and resolves once
 * billing has taken the new value in, so every user registered afterwards gets exactly this much.
 * Suites that count a new user's credits from 0 call it with 0.
 */
export const setWelcomeCredits = (stack: Pick<TestStack, 'url' | 'admin' | 'services'>, credits: number) =>
  setSetting(stack, 'welcome_credits', credits);

/**
 * Sets a setting as an admin does on /admin/sys_vals and waits for billing (any of the replicas among
 * `services`) to take its `setting.changed` in: the welcome grant, the star rate and the referral
 * settings are billing's to apply; every other setting is in chat-history's answers at once.
 */
export async function setSetting(
  stack: Pick<TestStack, 'url' | 'admin' | 'services'>,
  key: string,
  setTo: string | number,
): Promise<void> {
  const login = await callApi<{ token: string }>(stack.url, 'POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  const value = String(setTo);
  // Whichever billing replica among the services takes the event in.
  const taken = Promise.any(
    stack.services
      .filter((service) => service.name === 'billing')
      .map((billing) =>
        billing.deps.bus.waitFor(
          'acked',
          (event) =>
            event.type === 'setting.changed' &&
            (event.data as { key: string; value: string | null }).key === key &&
            (event.data as { value: string | null }).value === value,
          20_000,
        ),
      ),
  );
  const res = await callApi(stack.url, 'PUT', `/api/admin/sys_vals/${key}`, {
    token: login.body.token,
    body: { value },
  });
  if (res.status !== 200) throw new Error(`${key} not set: ${res.status} ${JSON.stringify(res.body)}`);
  await taken;
}

/** The bus of the running service `name` (the first, among replicas), to wait for what it published or handled. */
export const busOf = (stack: Pick<Stack, 'services'>, name: string) =>
  stack.services.find((service) => service.name === name)!.deps.bus;

/** A web account signed up through the gateway, and the session it was given. */
export interface SignedUp {
  id: number;
  email: string;
  password: string;
  token: string;
  user: { id: number; email_confirmed: boolean };
}

/**
 * Signs a person up on the site (`POST /api/auth/register`): from `address` (X-Forwarded-For) with
 * the `ref` code and `utmSource` when given; with `mailbox`, also confirmed by the mailed link, as a
 * person does to get the welcome grant.
 */
export async function signUp(
  baseUrl: string,
  options: { ref?: string; utmSource?: string; address?: string; password?: string; mailbox?: FakeMailbox } = {},
): Promise<SignedUp> {
  const email = `${uniqueName('person')}@example.com`;
  const password = options.password ?? 'password1';
  const res = await callApi<{ token: string; user: SignedUp['user'] }>(baseUrl, 'POST', '/api/auth/register', {
    body: { email, password, ref: options.ref, utm_source: options.utmSource },
    headers: options.address ? { 'X-Forwarded-For': options.address } : undefined,
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${JSON.stringify(res.body)}`);
  if (options.mailbox) {
    const confirmed = await confirmEmail(baseUrl, options.mailbox, email);
    if (confirmed.status !== 200) throw new Error(`confirmation answered ${confirmed.status}`);
  }
  return { id: res.body.user.id, email, password, token: res.body.token, user: res.body.user };
}

/** Follows the link of the confirmation mail sent to `email`, as the /confirm-email page does. */
export async function confirmEmail(baseUrl: string, mailbox: FakeMailbox, email: string) {
  const mail = await mailbox.waitForMail(email, { containing: '/confirm-email?token=' });
  const token = /confirm-email\?token=([\w-]+)/.exec(mail.text)![1]!;
  return callApi(baseUrl, 'POST', '/api/auth/email-confirmation/confirm', { body: { token } });
}

/** Stack settings for suites that sign many users up and in: cheap hashing, no login or sign-up limits. */
export const MANY_USERS_ENV = {
  ARGON2_MEMORY_KIB: '8192',
  ARGON2_TIME_COST: '1',
  RATE_LIMIT_LOGIN_POINTS: '1000',
  RATE_LIMIT_REGISTER_POINTS: '1000',
};

export interface ApiAnswer<T> {
  status: number;
  /** The JSON answer; the text itself when the answer is not JSON. */
  body: T;
  headers: Headers;
}

/**
 * Calls the product's API the way the web app and the bot do: optional bearer token or bot key.
 * `rawBody` sends a string as is (for malformed JSON); `headers` adds or overrides headers.
 */
export async function callApi<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    body?: unknown;
    rawBody?: string;
    token?: string;
    botKey?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
  };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.botKey) headers['X-Bot-Key'] = options.botKey;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...options.headers },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json') && text !== '';
  return {
    status: res.status,
    body: (json ? JSON.parse(text) : text) as T,
    headers: res.headers,
  };
}
