import {
  eventSchemas,
  type EventType,
  type MessageRecordedData,
  type PaymentSucceededData,
  type UserRegisteredData,
} from '@gpt/contracts';
import {
  busMigrations,
  createBus,
  createLogger,
  openDatabase,
  signAccessToken,
  type Bus,
  type BusTables,
  type Database,
  type Envelope,
} from '@gpt/kit';
import {
  createTestDatabase,
  dropTestDatabase,
  eventProducers,
  sampleMessageRecorded,
  sampleUserRegistered,
  startTestService,
  testInfra,
  type TestService,
} from '@gpt/kit/testing';
import type { z } from 'zod';
import { loadMetricsConfig, type MetricsConfig } from '../../src/config';
import type { MetricsDatabase } from '../../src/data/schema';
import { createMetricsService } from '../../src/service';

type EventSchemas = typeof eventSchemas;
export type EventInput<T extends EventType> = z.input<EventSchemas[T]>;

const silent = createLogger({ name: 'metrics-test', level: 'silent' });

/**
 * The metrics service on real PostgreSQL, RabbitMQ and Redis with its clock pinned to `now`,
 * plus the producing services' side of the bus: `publish` sends a contract event through an
 * outbox and the broker exactly as auth, billing or chat-history would, and resolves once
 * metrics has consumed it.
 */
export class MetricsHarness {
  private constructor(
    /** What the service takes for "now"; tests move `clock.now`. */
    readonly clock: { now: Date },
    readonly service: TestService<MetricsConfig, MetricsDatabase>,
    private readonly producers: Map<string, Bus<BusTables, EventSchemas>>,
    private readonly producerDb: Database<BusTables>,
    private readonly producerDbUrl: string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<MetricsHarness> {
    const clock = { now: new Date() };
    const service = await startTestService(createMetricsService({ clock: () => clock.now }), loadMetricsConfig, env);
    const producerDbUrl = await createTestDatabase('metrics_producers');
    const producerDb = await openDatabase<BusTables>({
      service: 'producers',
      url: producerDbUrl,
      migrations: busMigrations,
      logger: silent,
    });
    const producers = new Map<string, Bus<BusTables, EventSchemas>>();
    for (const name of new Set(Object.values(eventProducers))) {
      const bus = createBus<BusTables, EventSchemas>({
        service: name,
        db: producerDb.db,
        schemas: eventSchemas,
        logger: silent,
        amqpUrl: testInfra.amqpUrl,
        exchange: service.deps.config.AMQP_EXCHANGE,
      });
      await bus.start();
      await bus.ready();
      producers.set(name, bus);
    }
    return new MetricsHarness(clock, service, producers, producerDb, producerDbUrl);
  }

  get db() {
    return this.service.deps.db;
  }

  get bus() {
    return this.service.deps.bus;
  }

  /** Publishes like the owning service does (outbox → broker) and waits until metrics acknowledged it. */
  async publish<T extends EventType>(type: T, data: EventInput<T>, timeoutMs?: number): Promise<Envelope> {
    const bus = this.producers.get(eventProducers[type]) as Bus<BusTables, EventSchemas>;
    const envelope = await bus.transaction((trx) => bus.publish(trx, type, data));
    return this.bus.waitFor('acked', (event) => event.id === envelope.id, timeoutMs);
  }

  token(role: 'admin' | 'user' = 'admin', sub = '1'): string {
    return signAccessToken({ sub, role, ver: 0 }, this.service.deps.config.JWT_SECRET);
  }

  /** GET with an admin bearer token (or the given headers). */
  get(path: string, headers: Record<string, string> = { Authorization: `Bearer ${this.token()}` }) {
    return fetch(`${this.service.url}${path}`, { headers });
  }

  async stats(): Promise<Record<string, unknown>> {
    const res = await this.get('/api/admin/stats');
    if (res.status !== 200) throw new Error(`GET /api/admin/stats answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.producers.values()].map((bus) => bus.close()));
    await this.producerDb.close();
    await dropTestDatabase(this.producerDbUrl);
    await this.service.stop();
  }
}

let nextId = Math.floor(Math.random() * 1_000_000) * 1000;
/** A fresh positive id, unique within the test run. */
export const newId = () => ++nextId;

/** An instant given as Moscow wall-clock time, e.g. moscow('2025-09-30 23:59'). */
export function moscow(wallClock: string): string {
  // Moscow has been UTC+3 all year since 2014; the dates used in tests are later than that.
  return new Date(`${wallClock.replace(' ', 'T')}:00+03:00`).toISOString();
}

export function userRegistered(overrides: Partial<UserRegisteredData> = {}): EventInput<'user.registered'> {
  return sampleUserRegistered(overrides.user_id ?? newId(), overrides);
}

export function userDeleted(userId: number, deletedAt: string): EventInput<'user.deleted'> {
  return { user_id: userId, email: null, deleted_at: deletedAt, version: 1 };
}

export function paymentSucceeded(overrides: Partial<PaymentSucceededData> = {}): EventInput<'payment.succeeded'> {
  const id = newId();
  return {
    payment_id: `pay-${id}`,
    yookassa_payment_id: `yk-${id}`,
    user_id: newId(),
    kind: 'topup',
    tariff_id: null,
    amount: '100.00',
    currency: 'RUB',
    credits_amount: 10_000,
    succeeded_at: new Date().toISOString(),
    ...overrides,
  };
}

export function messageRecorded(overrides: Partial<MessageRecordedData> = {}): EventInput<'message.recorded'> {
  const id = overrides.message_id ?? newId();
  return sampleMessageRecorded(id, newId(), {
    username: `user_${id}`,
    user_message: `Вопрос ${id}`,
    bot_response: `Ответ ${id}`,
    ...overrides,
  });
}
