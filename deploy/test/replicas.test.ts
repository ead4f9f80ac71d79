import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { authService } from '@gpt/auth';
import { billingService } from '@gpt/billing';
import { createBotService } from '@gpt/bot';
import { chatHistoryService } from '@gpt/chat-history';
import { contentService } from '@gpt/content';
import { busMigrations, classicServiceQueue, type ServiceDefinition } from '@gpt/kit';
import {
  createEvent,
  type FakeMailbox,
  sampleUserRegistered,
  startFakeMailbox,
  testInfra,
  uniqueName,
} from '@gpt/kit/testing';
import amqp from 'amqplib';
import { metricsService } from '@gpt/metrics';
import { sql, type Kysely } from 'kysely';
import type { FakeYookassa } from '../../services/billing/test/support/fake-yookassa';
import { callApi, MANY_USERS_ENV, setSetting, signUp, startTestReplicas, type TestStack } from '../src/testing';
import { eventually } from './support/async';
import { type Customer, payAndNotify, signIn, startFakeProvider, startTopUp } from './faults/fault-stack';

/**
 * Replicas of every process on the same PostgreSQL databases, RabbitMQ exchange and Redis key
 * prefix, as a cluster runs them (docs/scaling.md): three start at once on empty databases, then
 * traffic goes through two of them, alternating, as a load balancer in front of the gateways would.
 */
const FEEDBACK_LIMIT = 4;
const exchange = uniqueName('test.events');
/** Someone an earlier version announced while billing and metrics were down: waiting in their classic queues. */
const waiting = createEvent(
  'user.registered',
  'auth',
  sampleUserRegistered(900_000_000 + Math.floor(Math.random() * 1e6)),
);
const classicQueues = ['billing', 'metrics'].map((service) => classicServiceQueue(service, exchange));
let replicas: TestStack[];
let closeAll: () => Promise<void>;
let yookassa: FakeYookassa;
let mailbox: FakeMailbox;

/** The broker as an earlier version left it: classic queues holding an event nobody handled yet. */
async function leaveClassicQueues() {
  const connection = await amqp.connect(testInfra.amqpUrl);
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  for (const queue of classicQueues) {
    await channel.assertQueue(queue, { durable: true });
    await channel.bindQueue(queue, exchange, waiting.type);
  }
  channel.publish(exchange, waiting.type, Buffer.from(JSON.stringify(waiting)), { persistent: true });
  await channel.waitForConfirms();
  await connection.close();
}

async function classicMessages(): Promise<number[]> {
  const connection = await amqp.connect(testInfra.amqpUrl);
  try {
    const channel = await connection.createChannel();
    return await Promise.all(classicQueues.map(async (queue) => (await channel.checkQueue(queue)).messageCount));
  } finally {
    await connection.close();
  }
}

beforeAll(async () => {
  await leaveClassicQueues();
  const provider = await startFakeProvider();
  yookassa = provider.yookassa;
  mailbox = await startFakeMailbox();
  ({ replicas, close: closeAll } = await startTestReplicas(3, {
    ...MANY_USERS_ENV,
    ...provider.env,
    SMTP_URL: mailbox.url,
    RATE_LIMIT_FEEDBACK_POINTS: String(FEEDBACK_LIMIT),
    AMQP_EXCHANGE: exchange,
    AMQP_QUEUE_TYPE: 'quorum',
  }));
}, 180_000);

afterAll(async () => {
  await closeAll?.();
  await yookassa?.stop();
  await mailbox?.close();
});

const definitions: Pick<ServiceDefinition<never, unknown>, 'name' | 'migrations'>[] = [
  authService,
  contentService,
  billingService,
  chatHistoryService,
  metricsService,
  createBotService(),
];
const dbOf = (replica: TestStack, service: string) =>
  replica.services.find((running) => running.name === service)!.deps.db as Kysely<unknown>;
const countOf = async (replica: TestStack, service: string, query: ReturnType<typeof sql<{ n: number }>>) =>
  (await query.execute(dbOf(replica, service))).rows[0]!.n;
/** Replica i of the two that take traffic: requests alternate between them. */
const via = (i: number) => replicas[i % 2]!.url;

describe('three replicas of every process started at once on empty databases', () => {
  test('each database is migrated once, each seed ran once, the classic queues of the earlier version are drained, and every replica is ready', async () => {
    // Ready as a cluster asks it: every service's /readyz (database, broker, Redis), through each gateway.
    for (const replica of replicas) {
      await eventually(async () => {
        const health = await callApi<{ status: string }>(replica.url, 'GET', '/api/healthz');
        expect(health.body).toMatchObject({ status: 'ok' });
      });
    }
    const [first] = replicas as [TestStack];
    for (const definition of definitions) {
      const applied = await countOf(first, definition.name, sql`select count(*)::int as n from kysely_migration`);
      expect([definition.name, applied]).toEqual([
        definition.name,
        Object.keys({ ...busMigrations, ...definition.migrations }).length,
      ]);
    }
    const admins = sql<{
      n: number;
    }>`select count(*)::int as n from users where email = ${first.admin.email}`;
    expect(await countOf(first, 'auth', admins)).toBe(1);
    expect(await countOf(first, 'billing', sql`select count(*)::int as n from tariffs`)).toBe(3);
    expect(await countOf(first, 'content', sql`select count(*)::int as n from articles`)).toBe(2);
    // What the earlier version's classic queues held is handled, once.
    await eventually(async () => {
      const billing = sql<{ n: number }>`select count(*)::int as n from users where id = ${waiting.data.user_id}`;
      expect(await countOf(first, 'billing', billing)).toBe(1);
      const metrics = sql<{ n: number }>`select count(*)::int as n from event_log where event_id = ${waiting.id}`;
      expect(await countOf(first, 'metrics', metrics)).toBe(1);
    });
    expect(await classicMessages()).toEqual([0, 0]);
    // Two replicas carry the traffic from here on.
    await replicas.pop()!.close();
  });
});

describe('two replicas of every process behind the gateways', () => {
  let adminToken: string;
  beforeAll(async () => {
    adminToken = await signIn(via(0), replicas[0]!.admin);
    // Every sign-up here comes from one address: its daily welcome allowance must cover them all.
    const both = { url: via(0), admin: replicas[0]!.admin, services: replicas.flatMap((replica) => replica.services) };
    await setSetting(both, 'welcome_per_address_daily', 100);
  });

  test('each event is handled once: every sign-up through either replica gets its welcome grant once', async () => {
    const customers: Customer[] = [];
    for (let i = 0; i < 8; i += 1) customers.push(await signUp(via(i), { mailbox }));
    await eventually(async () => {
      const shown = await Promise.all(
        customers.map(async (customer, i) => {
          const res = await callApi<{ credits: number }>(via(i + 1), 'GET', '/api/auth/profile', {
            token: customer.token,
          });
          return res.body.credits;
        }),
      );
      expect(shown[0]).toBeGreaterThan(0);
      expect(new Set(shown).size).toBe(1);
    });
    const ids = customers.map((customer) => customer.id);
    const grants = sql<{
      n: number;
    }>`select count(*)::int as n from ledger_entries
      where user_id = any(${ids}) and reason like 'welcome%'`;
    expect(await countOf(replicas[0]!, 'billing', grants)).toBe(customers.length);
    await eventually(async () => {
      const logged = sql<{
        n: number;
      }>`select count(*)::int as n from event_log where type = 'user.registered'
        and (envelope::jsonb -> 'data' ->> 'user_id')::int = any(${ids})`;
      expect(await countOf(replicas[0]!, 'metrics', logged)).toBe(customers.length);
    });
  });

  test('a change through one replica drops the kept answers of both', async () => {
    const article = {
      title: 'Старый заголовок',
      slug: uniqueName('replica').replace(/_/g, '-'),
      content: '<p>Текст</p>',
    };
    const created = await callApi<{ article: { id: number } }>(via(0), 'POST', '/api/admin/articles', {
      token: adminToken,
      body: { ...article, status: 'published' },
    });
    expect(created.status).toBe(201);
    const titles = () =>
      Promise.all(
        [0, 1].map((i) => callApi<{ article: { title: string } }>(via(i), 'GET', `/api/articles/${article.slug}`)),
      );
    expect((await titles()).map((res) => res.body.article.title)).toEqual([article.title, article.title]);

    const renamed = await callApi(via(1), 'PUT', `/api/admin/articles/${created.body.article.id}`, {
      token: adminToken,
      body: { ...article, title: 'Новый заголовок', status: 'published' },
    });
    expect(renamed.status).toBe(200);
    await eventually(async () => {
      expect((await titles()).map((res) => res.body.article.title)).toEqual(['Новый заголовок', 'Новый заголовок']);
    }, 10_000);
  });

  test('a rate limit counts the requests of both replicas together', async () => {
    const send = (i: number) =>
      callApi(via(i), 'POST', '/api/feedback', {
        body: {
          telegram: '@replica',
          subject: 'Вопрос',
          message: `Сообщение ${i}`,
        },
      });
    const statuses = [];
    for (let i = 0; i < FEEDBACK_LIMIT; i += 1) statuses.push((await send(i)).status);
    expect(statuses).toEqual(Array(FEEDBACK_LIMIT).fill(201));
    expect((await send(0)).status).toBe(429);
    expect((await send(1)).status).toBe(429);
  });

  test('a payment notified many times through both replicas at once is credited once', async () => {
    const customer = await signUp(via(0), { mailbox });
    const creditsOf = async () =>
      (await callApi<{ credits: number }>(via(1), 'GET', '/api/billing/balance', { token: customer.token })).body
        .credits;
    const before = await eventually(async () => {
      const credits = await creditsOf();
      expect(credits).toBeGreaterThan(0);
      return credits;
    });
    const topUp = await startTopUp(via(1), customer, '150.00');
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => payAndNotify(via(i), yookassa, topUp)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await creditsOf()).toBe(before + topUp.credits);
    await eventually(async () => {
      const profile = await callApi<{ credits: number }>(via(0), 'GET', '/api/auth/profile', { token: customer.token });
      expect(profile.body.credits).toBe(before + topUp.credits);
    });
  });
});
