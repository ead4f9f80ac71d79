import { makeEnvelope } from '@gpt/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Logger } from '../logger';
import { AmqpTransport, type QueueType } from './amqp-transport';
import { createInboxConsumer } from './inbox-consumer';
import { InProcessTransport, type InProcessBroker } from './in-process-broker';
import type { BusTables } from './migrations';
import { Observer } from './observer';
import { OutboxRelay } from './outbox-relay';
import type {
  BusOccurrenceKind,
  Consumer,
  Delivery,
  Envelope,
  EventOf,
  EventSchemaMap,
  EventTypeOf,
  Transport,
} from './types';

export interface BusOptions<DB, S extends EventSchemaMap> {
  /** The producer name in envelopes and the default queue name. */
  service: string;
  /** The service's database; it must have run `busMigrations`. */
  db: Kysely<DB>;
  schemas: S;
  logger: Logger;
  /** RabbitMQ; give this or `broker`. */
  amqpUrl?: string;
  /** The in-process broker of the embedded default; give this or `amqpUrl`. */
  broker?: InProcessBroker;
  /** Default 'app.events'. */
  exchange?: string;
  /** Default: the service name. */
  queue?: string;
  /** Other services' queues to declare on the broker with their bindings (see AmqpTransportOptions.peers). */
  peers?: ReadonlyArray<{ queue: string; types: readonly string[] }>;
  /** The classic queue of an earlier version, drained beside `queue` while it exists (see AmqpTransportOptions.classicQueue). */
  classicQueue?: string;
  /** Quorum queues unless told (see AmqpTransportOptions.queueType). */
  queueType?: QueueType;
  /** Same as calling consume() for each before start(). */
  consumers?: Consumer<DB, S>[];
  /** Deliveries of one event before it is dead-lettered. Default 5. */
  maxAttempts?: number;
  /** Wait before retry n (the last value repeats). Default [1 s, 10 s, 60 s]. */
  retryDelaysMs?: number[];
  /** How often the relay looks for rows nobody announced with notify(). Default 1000. */
  relayIntervalMs?: number;
  /** Unacknowledged messages one service instance holds at a time. Default 16. */
  prefetch?: number;
  /** Wait before reconnect attempt n to RabbitMQ (the last value repeats). Default 0.1 s growing to 5 s. */
  reconnectDelaysMs?: number[];
}

export interface Bus<DB, S extends EventSchemaMap> {
  /**
   * Validates `data` and writes the event to the outbox inside `trx`, so it is published if and
   * only if that transaction commits. Call `notify()` after the commit to send it at once.
   */
  publish<K extends EventTypeOf<S>>(trx: Kysely<DB>, type: K, data: z.input<S[K]>): Promise<EventOf<S, K>>;
  /** Registers a consumer; only before start(). */
  consume<K extends EventTypeOf<S>>(consumer: Consumer<DB, S, K>): void;
  /** Runs `work` in a transaction on the bus's database and wakes the relay once it has committed. */
  transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  /** Wakes the relay (after a commit that published). */
  notify(): void;
  /** Relays every committed outbox row now; rows stay if the broker is down. */
  flush(): Promise<void>;
  /** Starts the relay and, if there are consumers, consuming. Does not wait for the broker. */
  start(): Promise<void>;
  /** Resolves when the broker is connected and the service's queue declared: now, or at the next (re)connection. */
  ready(): Promise<void>;
  /** Throws when the broker is unreachable (for /readyz). */
  ping(): Promise<void>;
  /** Stops the relay and consuming, waits for handlers in flight, closes channels and connection. */
  close(): Promise<void>;
  /**
   * Resolves with the next matching event the bus published, acked, retried or dead-lettered.
   * Each occurrence satisfies one call; the last 1000 are kept, so waiting slightly late misses nothing.
   */
  waitFor(kind: BusOccurrenceKind, predicate?: (event: Envelope) => boolean, timeoutMs?: number): Promise<Envelope>;
}

/** Back-off between attempts of a failing handler. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 10_000, 60_000];

/** The event bus of docs/architecture.md, Events: outbox → relay → broker → inbox → consumers. */
export function createBus<DB, S extends EventSchemaMap>(options: BusOptions<DB, S>): Bus<DB, S> {
  const { service, schemas } = options;
  if (Boolean(options.amqpUrl) === Boolean(options.broker)) throw new Error('createBus needs either amqpUrl or broker');
  const logger = options.logger.child({ component: 'bus' });
  const db = options.db as unknown as Kysely<BusTables>;
  const queue = options.queue ?? service;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const prefetch = options.prefetch ?? 16;
  const observer = new Observer();
  const consumers: Consumer<DB, S>[] = [];
  let started = false;

  const transport: Transport = options.amqpUrl
    ? new AmqpTransport({
        url: options.amqpUrl,
        logger,
        exchange: options.exchange ?? 'app.events',
        queue,
        retryDelaysMs,
        prefetch,
        reconnectDelaysMs: options.reconnectDelaysMs ?? [100, 500, 1_000, 2_000, 5_000],
        peers: options.peers,
        classicQueue: options.classicQueue,
        queueType: options.queueType,
      })
    : new InProcessTransport(options.broker as InProcessBroker, queue, prefetch);

  const relay = new OutboxRelay({
    db,
    transport,
    logger,
    intervalMs: options.relayIntervalMs ?? 1_000,
    onPublished: (envelope) => observer.record('published', envelope),
  });

  const inFlight = new Set<Promise<void>>();
  let handle: ((delivery: Delivery) => Promise<void>) | null = null;
  const onDelivery = (delivery: Delivery) => {
    const handling = (handle as (delivery: Delivery) => Promise<void>)(delivery)
      .catch((err: unknown) => logger.error({ err }, 'message handling failed'))
      .finally(() => inFlight.delete(handling));
    inFlight.add(handling);
    return handling;
  };

  let readyWaiters: (() => void)[] = [];
  transport.onReady(() => {
    readyWaiters.forEach((resolve) => resolve());
    readyWaiters = [];
    relay.notify();
  });

  const bus: Bus<DB, S> = {
    async publish(trx, type, data) {
      const envelope = makeEnvelope(schemas, service, type, data) as EventOf<S, typeof type>;
      await (trx as unknown as Kysely<BusTables>)
        .insertInto('outbox')
        .values({ id: envelope.id, type, payload: JSON.stringify(envelope) })
        .execute();
      // Usually runs after the caller's commit; if not, notify() or the next poll sends it.
      setImmediate(() => relay.notify());
      return envelope;
    },
    consume(consumer) {
      if (started) throw new Error('Register consumers before the bus starts');
      const name = consumer.name ?? consumer.event;
      if (consumers.some((c) => (c.name ?? c.event) === name)) {
        throw new Error(`Two consumers are named "${name}"; give each a distinct name`);
      }
      if (!Object.hasOwn(schemas, consumer.event)) throw new Error(`Unknown event type "${consumer.event}"`);
      consumers.push(consumer as unknown as Consumer<DB, S>);
      transport.bind(consumer.event);
    },
    async transaction(work) {
      const result = await options.db.transaction().execute(work);
      relay.notify();
      return result;
    },
    notify: () => relay.notify(),
    flush: () => relay.flush(),
    async start() {
      if (started) return;
      started = true;
      handle = createInboxConsumer({
        db,
        schemas,
        consumers,
        maxAttempts: options.maxAttempts ?? 5,
        retryDelaysMs,
        logger,
        observer,
      });
      transport.start(onDelivery);
      relay.start();
    },
    ready() {
      return transport.ping().catch(() => new Promise<void>((resolve) => readyWaiters.push(resolve)));
    },
    ping: () => transport.ping(),
    async close() {
      await relay.stop();
      await transport.stopConsuming();
      await Promise.allSettled([...inFlight]);
      await transport.close();
    },
    waitFor: (kind, predicate, timeoutMs) => observer.waitFor(kind, predicate, timeoutMs),
  };
  for (const consumer of options.consumers ?? []) bus.consume(consumer);
  return bus;
}
