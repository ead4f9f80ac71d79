import { outsideTransaction } from '../db/transaction-guard';
import type { Delivery, Envelope, Transport } from './types';

/** A message the broker gave up on, kept for inspection. */
export interface DeadLetter {
  queue: string;
  body: string;
  reason: string;
  attempts: number;
  at: Date;
}

interface QueuedMessage {
  body: string;
  attempt: number;
}

interface BrokerQueue {
  messages: QueuedMessage[];
  consumer: { onDelivery: (delivery: Delivery) => Promise<void>; prefetch: number; inFlight: number } | null;
}

/**
 * The embedded stand-in for RabbitMQ, shared by every service of one Node process: named
 * queues bound to event types, asynchronous delivery with a prefetch limit, delayed retries
 * and dead letters kept in memory. Queues live as long as the process.
 */
export class InProcessBroker {
  private readonly queues = new Map<string, BrokerQueue>();
  private readonly bindings = new Map<string, Set<string>>();
  private readonly deadLetterList: DeadLetter[] = [];
  private held: { type: string; body: string }[] | null;

  /**
   * `held: true` keeps published messages in the exchange until open(): services of one process
   * start one after another, and an event routed before its consumer's queue exists would be lost.
   */
  constructor(options: { held?: boolean } = {}) {
    this.held = options.held ? [] : null;
  }

  /** Routes what was published while held, and everything from now on. */
  open(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const { type, body } of held) this.publish(type, body);
  }

  /** Creates the queue if needed and binds it to `types`; messages wait there until someone consumes. */
  declareQueue(name: string, types: string[]): void {
    if (!this.queues.has(name)) this.queues.set(name, { messages: [], consumer: null });
    for (const type of types) {
      const queues = this.bindings.get(type) ?? new Set<string>();
      queues.add(name);
      this.bindings.set(type, queues);
    }
  }

  /** Routes a message body to every queue bound to `type` (nowhere if none is). */
  publish(type: string, body: string): void {
    if (this.held) {
      this.held.push({ type, body });
      return;
    }
    for (const name of this.bindings.get(type) ?? []) this.enqueue(name, { body, attempt: 1 });
  }

  /** Dead letters, oldest first, of one queue or of all. */
  deadLetters(queue?: string): DeadLetter[] {
    return this.deadLetterList.filter((letter) => queue === undefined || letter.queue === queue);
  }

  /** Starts delivering the queue's messages; returns the function that stops it. */
  consume(name: string, prefetch: number, onDelivery: (delivery: Delivery) => Promise<void>): () => void {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`Queue "${name}" is not declared`);
    if (queue.consumer) throw new Error(`Queue "${name}" already has a consumer`);
    const consumer = { onDelivery, prefetch, inFlight: 0 };
    queue.consumer = consumer;
    this.pump(name);
    return () => {
      if (queue.consumer === consumer) queue.consumer = null;
    };
  }

  private enqueue(name: string, message: QueuedMessage, first = false): void {
    const queue = this.queues.get(name);
    if (!queue) return;
    if (first) queue.messages.unshift(message);
    else queue.messages.push(message);
    this.pump(name);
  }

  private pump(name: string): void {
    const queue = this.queues.get(name);
    const consumer = queue?.consumer;
    if (!queue || !consumer) return;
    while (consumer.inFlight < consumer.prefetch && queue.messages.length > 0) {
      const message = queue.messages.shift() as QueuedMessage;
      consumer.inFlight += 1;
      setImmediate(() => outsideTransaction(() => void this.deliver(name, consumer, message)));
    }
  }

  private async deliver(name: string, consumer: NonNullable<BrokerQueue['consumer']>, message: QueuedMessage) {
    let settled = false;
    const settle = async (effect: () => void) => {
      if (settled) return false;
      settled = true;
      effect();
      return true;
    };
    const delivery: Delivery = {
      body: message.body,
      attempt: message.attempt,
      ack: () => settle(() => {}),
      retry: (delayMs) =>
        settle(() => {
          const again = { body: message.body, attempt: message.attempt + 1 };
          setTimeout(() => this.enqueue(name, again), delayMs).unref();
        }),
      deadLetter: (reason) =>
        settle(() => {
          const { body, attempt } = message;
          this.deadLetterList.push({ queue: name, body, reason, attempts: attempt, at: new Date() });
        }),
    };
    try {
      await consumer.onDelivery(delivery);
    } catch {
      // Settled or not, the outcome is handled below.
    }
    consumer.inFlight -= 1;
    // Like a broker whose consumer went away without an ack: the message is delivered again.
    if (!settled) this.enqueue(name, message, true);
    else this.pump(name);
  }
}

export function createInProcessBroker(options: { held?: boolean } = {}): InProcessBroker {
  return new InProcessBroker(options);
}

/** One service's view of an in-process broker. */
export class InProcessTransport implements Transport {
  private readonly readyListeners: (() => void)[] = [];
  private cancel: (() => void) | null = null;

  private bound = false;

  constructor(
    private readonly broker: InProcessBroker,
    private readonly queue: string,
    private readonly prefetch: number,
  ) {}

  // Declared at once rather than at start, so events published meanwhile wait in the queue.
  bind(type: string): void {
    this.broker.declareQueue(this.queue, [type]);
    this.bound = true;
  }

  start(onDelivery: (delivery: Delivery) => Promise<void>): void {
    if (this.bound) this.cancel = this.broker.consume(this.queue, this.prefetch, onDelivery);
    setImmediate(() => this.readyListeners.forEach((listener) => listener()));
  }

  async publish(envelope: Envelope): Promise<void> {
    this.broker.publish(envelope.type, JSON.stringify(envelope));
  }

  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  async ping(): Promise<void> {}

  async stopConsuming(): Promise<void> {
    this.cancel?.();
    this.cancel = null;
  }

  async close(): Promise<void> {
    await this.stopConsuming();
  }
}
