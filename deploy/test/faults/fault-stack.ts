import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../support/async';
import { expect } from '@jest/globals';
import type { AdminStats, StatsSeriesResponse } from '@gpt/contracts';
import type { Env, RunningService, ServiceConfig } from '@gpt/kit';
import { deleteTestBroker, TEST_SECRETS, testInfra, uniqueName } from '@gpt/kit/testing';
import { pino, type Logger } from 'pino';
import { FAKE_SECRET_KEY, FAKE_SHOP_ID, FakeYookassa } from '../../../services/billing/test/support/fake-yookassa';
import { startStack, type Stack } from '../../src/stack';
import { busOf, callApi, MANY_USERS_ENV, setWelcomeCredits, signUp } from '../../src/testing';
import type { PrivatePostgres, PrivateRabbit } from './private-infra';

/** One log line of the stack, as pino wrote it. */
export interface LogEntry {
  level: number;
  msg?: string;
  service?: string;
  [key: string]: unknown;
}

/** Keeps every line the stack logs (info and up), so a test can look for what happened. */
export class LogCapture {
  private readonly lines: string[] = [];
  readonly logger: Logger = pino({ level: 'info' }, { write: (line: string) => this.lines.push(line) });

  /** Lines whose text matches, e.g. /unknown delivery tag/. */
  matching(pattern: RegExp): LogEntry[] {
    return this.lines.filter((line) => pattern.test(line)).map((line) => JSON.parse(line) as LogEntry);
  }
}

export interface FaultStack extends Stack {
  url: string;
  admin: { email: string; password: string };
  logs: LogCapture;
  service(name: string): RunningService<ServiceConfig, unknown>;
}

/**
 * The whole product in this process (as startTestStack) on a private PostgreSQL server and a private
 * RabbitMQ node, or the shared broker on an exchange of its own when the test leaves the broker alone.
 * Redis stays the shared one under a key prefix of its own. Logs are captured, not printed.
 */
export async function startFaultStack(
  infra: { postgres: PrivatePostgres; rabbit?: PrivateRabbit },
  env: Env = {},
): Promise<FaultStack> {
  const admin = { email: `${uniqueName('admin')}@example.com`, password: 'admin12345' };
  // A private node is ours alone, so the product's own exchange and queue names.
  const exchange = infra.rabbit ? 'app.events' : uniqueName('fault.events');
  const logs = new LogCapture();
  const stack = await startStack(
    {
      PORT: '0',
      DATABASE_URL: infra.postgres.url,
      AMQP_URL: infra.rabbit?.url ?? testInfra.amqpUrl,
      AMQP_EXCHANGE: exchange,
      REDIS_URL: testInfra.redisUrl,
      REDIS_KEY_PREFIX: `${uniqueName('fault')}:`,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...MANY_USERS_ENV,
      // A thousand top-ups from a few customers: the per-user payment limit is not what these tests are about.
      RATE_LIMIT_PAYMENT_POINTS: '100000',
      ...TEST_SECRETS,
      ...env,
    },
    logs.logger,
  );
  // The faults are told apart by exact balances: a new customer starts from 0, with no welcome grant.
  await setWelcomeCredits({ ...stack, url: stack.gateway.url, admin }, 0);
  return {
    ...stack,
    url: stack.gateway.url,
    admin,
    logs,
    service: (name) => stack.services.find((service) => service.name === name)!,
    async close() {
      await stack.close();
      if (!infra.rabbit) await deleteTestBroker(exchange);
    },
  };
}

/** A fake YooKassa on localhost and the billing settings that point at it. */
export async function startFakeProvider() {
  const yookassa = await new FakeYookassa().start();
  const env = {
    YOOKASSA_API_URL: yookassa.url,
    YOOKASSA_SHOP_ID: FAKE_SHOP_ID,
    YOOKASSA_SECRET_KEY: FAKE_SECRET_KEY,
    SITE_URL: 'https://site.example',
  };
  return { yookassa, env };
}

export interface Customer {
  id: number;
  token: string;
}

/**
 * A web user signed up through the gateway whose balance billing has opened, so they can pay at
 * once: auth has consumed billing's first credits.changed about them.
 */
export async function signUpReady(stack: Pick<Stack, 'services'> & { url: string }): Promise<Customer> {
  const customer = await signUp(stack.url);
  await busOf(stack, 'auth').waitFor(
    'acked',
    (e) => e.type === 'credits.changed' && (e.data as { user_id: number }).user_id === customer.id,
    60_000,
  );
  return customer;
}

/** Signs in through the gateway; answers the token. */
export async function signIn(baseUrl: string, account: { email: string; password: string }): Promise<string> {
  const res = await callApi<{ token: string }>(baseUrl, 'POST', '/api/auth/login', { body: account });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** Kopecks as the API writes roubles: "1234.05". */
export const roubles = (kopecks: number) => `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
const toKopecks = (money: string) => Math.round(Number(money) * 100);

/**
 * Deposits (in kopecks) on the admin dashboard: the chart's last two days (a fresh stack's every
 * deposit, even across midnight), and today's and this month's figures beside the chart's.
 */
export async function dashboardDeposits(baseUrl: string, adminToken: string) {
  const token = adminToken;
  const [stats, series] = await Promise.all([
    callApi<AdminStats>(baseUrl, 'GET', '/api/admin/stats', { token }),
    callApi<StatsSeriesResponse>(baseUrl, 'GET', '/api/admin/stats/series?days=2', { token }),
  ]);
  const points = series.body.series.map((point) => ({ date: point.date, kopecks: toKopecks(point.deposited) }));
  const today = points.at(-1)!;
  const sum = (list: typeof points) => list.reduce((total, point) => total + point.kopecks, 0);
  return {
    charted: sum(points),
    today: { shown: toKopecks(stats.body.depositedToday), charted: today.kopecks },
    month: {
      shown: toKopecks(stats.body.depositedMonth),
      charted: sum(points.filter((point) => point.date.slice(0, 7) === today.date.slice(0, 7))),
    },
  };
}

export interface TopUp {
  paymentId: string;
  /** The provider's id of the payment. */
  remoteId: string;
  credits: number;
}

/** What billing answers to a new payment. */
export interface CreatedPayment {
  payment_id: string;
  credits_amount: number;
  confirmation_url: string;
}

export const topUpOf = (created: CreatedPayment): TopUp => ({
  paymentId: created.payment_id,
  remoteId: new URL(created.confirmation_url).searchParams.get('orderId')!,
  credits: created.credits_amount,
});

/** The customer starts a top-up through the gateway; billing creates it at the provider. */
export async function startTopUp(baseUrl: string, customer: Customer, amount: string): Promise<TopUp> {
  const res = await callApi<CreatedPayment>(baseUrl, 'POST', '/api/billing/payments', {
    token: customer.token,
    body: { amount },
  });
  if (res.status !== 201) throw new Error(`top-up answered ${res.status}: ${JSON.stringify(res.body)}`);
  return topUpOf(res.body);
}

/** The payer pays at the provider, which then notifies billing through the gateway; answers the notification's status. */
export async function payAndNotify(baseUrl: string, yookassa: FakeYookassa, topUp: TopUp): Promise<number> {
  yookassa.succeed(topUp.remoteId);
  const res = await yookassa.notify(`${baseUrl}/api/billing/webhooks/yookassa`, topUp.remoteId);
  await res.body?.cancel();
  return res.status;
}

/** Each customer's profile (auth's projection of billing's balance) comes to show exactly the expected credits. */
export async function expectCredits(baseUrl: string, expected: Map<Customer, number>): Promise<void> {
  const customers = [...expected.keys()];
  await eventually(async () => {
    const shown = await Promise.all(
      customers.map(async (customer) => {
        const res = await callApi<{ credits: number }>(baseUrl, 'GET', '/api/auth/profile', { token: customer.token });
        return res.body.credits;
      }),
    );
    expect(shown).toEqual(customers.map((customer) => expected.get(customer)));
  }, 120_000);
}

/** How often metrics logged payment.succeeded events (of these payments, if given): rows, and distinct events. */
export async function paymentsLogged(postgres: PrivatePostgres, paymentIds?: string[]) {
  const db = await postgres.connect('gpt_metrics');
  try {
    const { rows } = await db.query<{ rows: number; events: number }>(
      `select count(*)::int as rows, count(distinct event_id)::int as events from event_log
        where type = 'payment.succeeded' and ($1::text[] is null or (envelope::jsonb -> 'data' ->> 'payment_id') = any($1))`,
      [paymentIds ?? null],
    );
    return rows[0];
  } finally {
    await db.end();
  }
}

/** One answer the traffic got. */
export interface Answer {
  request: string;
  /** 0: no answer within the client's patience (a hang) or no connection at all. */
  status: number;
  body: unknown;
  ms: number;
}

/** Calls the API (as callApi) and writes the answer down. */
export type Call = (method: string, path: string, options?: Parameters<typeof callApi>[3]) => Promise<Answer>;

/** Far beyond any sane answer time: only a hang gets there. */
const PATIENCE_MS = 30_000;

/**
 * How long a client waits between its visits: steady traffic, not a flood. Unpaced, the clients sent requests
 * as fast as they were answered (quick 503s while a server was down: 1 215 failures in the killed-service
 * test where 421 now show the same), which only took CPU from the services under test while they recovered.
 */
const BETWEEN_VISITS_MS = 20;

/** `concurrency` clients of the API, each repeating `visit` (with a short pause) until stopped, every answer written down. */
export class Traffic {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly done: Promise<void[]>;

  constructor(
    private readonly baseUrl: string,
    concurrency: number,
    visit: (call: Call, worker: number, round: number) => Promise<void>,
  ) {
    this.done = Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        for (let round = 0; this.running; round += 1) {
          await visit(this.call, worker, round);
          await sleep(BETWEEN_VISITS_MS);
        }
      }),
    );
  }

  /** The answers since the `since`-th one: how many succeeded, and those that did not. */
  since(since: number) {
    const later = this.answers.slice(since);
    const ok = (answer: Answer) => answer.status > 0 && answer.status < 300;
    return { ok: later.filter(ok).length, failed: later.filter((answer) => !ok(answer)) };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private readonly call: Call = async (method, path, options) => {
    const request = `${method} ${path}`;
    const started = Date.now();
    const answered = await Promise.race([
      callApi(this.baseUrl, method, path, options).then(({ status, body }) => ({ status, body })),
      sleep(PATIENCE_MS, undefined, { ref: false }).then(() => ({ status: 0, body: 'no answer' })),
    ]).catch((err: unknown) => ({ status: 0, body: String(err) }));
    const answer = { request, ...answered, ms: Date.now() - started };
    this.answers.push(answer);
    return answer;
  };
}
