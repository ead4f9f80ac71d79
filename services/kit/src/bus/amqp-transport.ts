import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { Logger } from '../logger';
import { AmqpConnection } from './amqp-connection';
import type { Delivery, Envelope, Transport } from './types';

export interface AmqpTransportOptions {
  url: string;
  logger: Logger;
  exchange: string;
  queue: string;
  retryDelaysMs: number[];
  prefetch: number;
  reconnectDelaysMs: number[];
  confirmTimeoutMs?: number;
  /**
   * The other services' queues and the types each is bound to. Declaring them too means an event
   * published before its consumer first started waits in that consumer's queue instead of being dropped.
   */
  peers?: ReadonlyArray<{ queue: string; types: readonly string[] }>;
  /**
   * The classic queue this service consumed before its queues became quorum queues. While it exists
   * it is unbound from the service's types and consumed beside the new queue until it is empty, so
   * the events it still holds are handled (once: the inbox) and none is lost. docs/architecture.md.
   */
  classicQueue?: string;
  /** Quorum queues (the default; production) or classic ones (the test suites: far lighter on one broker). */
  queueType?: QueueType;
}

export type QueueType = 'quorum' | 'classic';

/** One connection's channels; `open` turns false for good once any of them is gone. */
interface Session {
  publisher: ConfirmChannel;
  consumer: Channel | null;
  consumerTags: string[];
  open: boolean;
}

const HEADER_ATTEMPT = 'x-attempt';
const HEADER_REASON = 'x-dead-reason';
const MAX_REASON = 1000;

/** Dead letters of queue `q` go to this queue, with the reason in the `x-dead-reason` header. */
export const deadLetterQueueOf = (queue: string) => `${queue}.dead`;
/** A failed message waits `delayMs` here, then the broker dead-letters it back into `queue`. */
export const retryQueueOf = (queue: string, delayMs: number) => `${queue}.retry.${delayMs}ms`;

/**
 * Quorum queues: durable and replicated on a cluster (a single node runs them too). Messages that
 * leave one by dead-lettering (a retry's delay running out) are moved at least once, never dropped.
 */
const QUORUM = { 'x-queue-type': 'quorum' };
const QUORUM_DEAD_LETTERING = { ...QUORUM, 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };
const CLASSIC = { 'x-queue-type': 'classic' };

/**
 * RabbitMQ for one service: a durable topic exchange (routing key = event type), the service's
 * quorum queue bound to the types it consumes, one TTL retry queue per back-off delay that
 * dead-letters back into it, and `<queue>.dead`. Publishing waits for the broker's confirm.
 * Messages are settled only on the channel they came from; once it is gone they are left for
 * the broker to redeliver, so a reconnect never acks an unknown delivery tag.
 */
export class AmqpTransport implements Transport {
  private readonly connection: AmqpConnection;
  private readonly readyListeners: (() => void)[] = [];
  /** Event types the queue is bound to; none means the service only publishes. */
  private readonly types = new Set<string>();
  private session: Session | null = null;
  private onDelivery: ((delivery: Delivery) => Promise<void>) | null = null;
  private closing = false;

  constructor(private readonly options: AmqpTransportOptions) {
    this.connection = new AmqpConnection({
      url: options.url,
      logger: options.logger,
      reconnectDelaysMs: options.reconnectDelaysMs,
      setup: (model) => this.setup(model),
      onLost: () => this.drop(),
    });
  }

  bind(type: string): void {
    this.types.add(type);
  }

  start(onDelivery: (delivery: Delivery) => Promise<void>): void {
    this.onDelivery = onDelivery;
    this.closing = false;
    this.connection.start();
  }

  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  async publish(envelope: Envelope): Promise<void> {
    const session = this.liveSession();
    const content = Buffer.from(JSON.stringify(envelope));
    await this.confirm(session, (done) =>
      session.publisher.publish(this.options.exchange, envelope.type, content, propertiesOf(envelope), done),
    );
  }

  async ping(): Promise<void> {
    this.liveSession();
  }

  async stopConsuming(): Promise<void> {
    this.onDelivery = null;
    const session = this.session;
    if (session?.open && session.consumer) {
      for (const tag of session.consumerTags) await session.consumer.cancel(tag).catch(() => {});
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.drop();
    await this.connection.close();
  }

  private liveSession(): Session {
    if (!this.session?.open) throw new Error('The message broker is not connected');
    return this.session;
  }

  private drop(): void {
    if (this.session) this.session.open = false;
    this.session = null;
  }

  private async setup(model: ChannelModel): Promise<void> {
    const { exchange, queue, prefetch, peers = [], classicQueue } = this.options;
    const types = [...this.types];
    const session: Session = {
      publisher: await model.createConfirmChannel(),
      consumer: null,
      consumerTags: [],
      open: true,
    };
    this.watch(model, session, session.publisher);
    const channel = session.publisher;
    await channel.assertExchange(exchange, 'topic', { durable: true });
    for (const declared of [{ queue, types }, ...peers]) {
      if (declared.types.length > 0) await this.declareQueue(channel, declared.queue, declared.types);
    }
    // New events go to the quorum queue only; what the classic one holds is drained below.
    const draining = types.length > 0 && classicQueue !== undefined && (await queueExists(model, classicQueue));
    if (draining) for (const type of types) await channel.unbindQueue(classicQueue, exchange, type);
    this.session = session;
    const onDelivery = this.onDelivery;
    if (types.length > 0 && onDelivery) {
      session.consumer = await model.createChannel();
      this.watch(model, session, session.consumer);
      await session.consumer.prefetch(prefetch);
      for (const source of draining ? [queue, classicQueue] : [queue]) {
        const { consumerTag } = await session.consumer.consume(source, (msg) => this.receive(session, msg, onDelivery));
        session.consumerTags.push(consumerTag);
      }
    }
    this.readyListeners.forEach((listener) => listener());
  }

  private async declareQueue(channel: Channel, queue: string, types: readonly string[]): Promise<void> {
    const quorum = (this.options.queueType ?? 'quorum') === 'quorum';
    const kind = quorum ? QUORUM : CLASSIC;
    await channel.assertQueue(queue, { durable: true, arguments: kind });
    await channel.assertQueue(deadLetterQueueOf(queue), { durable: true, arguments: kind });
    for (const delayMs of new Set(this.options.retryDelaysMs)) {
      await channel.assertQueue(retryQueueOf(queue, delayMs), {
        durable: true,
        arguments: {
          ...(quorum ? QUORUM_DEAD_LETTERING : CLASSIC),
          'x-message-ttl': delayMs,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': queue,
        },
      });
    }
    for (const type of types) await channel.bindQueue(queue, this.options.exchange, type);
  }

  // Losing one channel (e.g. an error the broker closed it for) recycles the whole connection.
  private watch(model: ChannelModel, session: Session, channel: Channel): void {
    channel.on('error', (err: Error) => this.options.logger.warn({ err }, 'broker channel error'));
    channel.on('close', () => {
      const wasCurrent = this.session === session;
      session.open = false;
      if (wasCurrent && !this.closing) model.close().catch(() => {});
    });
  }

  private receive(session: Session, msg: ConsumeMessage | null, onDelivery: (d: Delivery) => Promise<void>): void {
    if (!msg) {
      // The broker cancelled us (e.g. the queue was deleted): reconnecting declares it again.
      this.options.logger.warn('broker cancelled the consumer; reconnecting');
      session.open = false;
      session.consumer?.close().catch(() => {});
      return;
    }
    const attempt = Number(msg.properties.headers?.[HEADER_ATTEMPT] ?? 1) || 1;
    const { queue } = this.options;
    const delivery: Delivery = {
      body: msg.content.toString('utf8'),
      attempt,
      ack: () => this.settle(session, msg, null),
      retry: (delayMs, reason) =>
        this.settle(session, msg, {
          queue: retryQueueOf(queue, delayMs),
          headers: { [HEADER_ATTEMPT]: attempt + 1, 'x-last-error': clip(reason) },
        }),
      deadLetter: (reason) =>
        this.settle(session, msg, {
          queue: deadLetterQueueOf(queue),
          headers: { [HEADER_REASON]: clip(reason), 'x-attempts': attempt },
        }),
    };
    void onDelivery(delivery);
  }

  /** Forwards a copy (to a retry or dead-letter queue) if asked, then acks; false if the channel is gone. */
  private async settle(
    session: Session,
    msg: ConsumeMessage,
    forward: { queue: string; headers: Record<string, unknown> } | null,
  ): Promise<boolean> {
    if (!session.open || !session.consumer) return false;
    if (forward) {
      const { contentType, messageId, type, appId, timestamp } = msg.properties as Options.Publish;
      const properties = { persistent: true, contentType, messageId, type, appId, timestamp };
      const headers = { ...ownHeaders(msg), ...forward.headers };
      await this.confirm(session, (done) =>
        session.publisher.sendToQueue(forward.queue, msg.content, { ...properties, headers }, done),
      );
      // A copy is forwarded but the original will come back: the inbox absorbs that duplicate.
      if (!session.open) return false;
    }
    session.consumer.ack(msg);
    return true;
  }

  private confirm(session: Session, send: (done: (err: unknown) => void) => void): Promise<void> {
    const timeoutMs = this.options.confirmTimeoutMs ?? 10_000;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No broker confirm within ${timeoutMs} ms`)), timeoutMs);
      const done = (err: unknown) => {
        clearTimeout(timer);
        if (err) reject(err instanceof Error ? err : new Error(`Broker refused the message: ${String(err)}`));
        else resolve();
      };
      try {
        if (!session.open) throw new Error('The message broker is not connected');
        send(done);
      } catch (err) {
        done(err ?? new Error('publish failed'));
      }
    });
  }
}

/** Asked on a channel of its own: the broker closes a channel that asks about a missing queue. */
async function queueExists(model: ChannelModel, queue: string): Promise<boolean> {
  const probe = await model.createChannel();
  probe.on('error', () => {});
  try {
    await probe.checkQueue(queue);
    await probe.close();
    return true;
  } catch {
    return false;
  }
}

function propertiesOf(envelope: Envelope): Options.Publish {
  return {
    persistent: true,
    contentType: 'application/json',
    messageId: envelope.id,
    type: envelope.type,
    appId: envelope.producer,
    timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000) || undefined,
  };
}

// The broker's own x- headers (x-death and friends) are not ours to copy.
function ownHeaders(msg: ConsumeMessage): Record<string, unknown> {
  const headers = (msg.properties.headers ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !key.startsWith('x-')));
}

function clip(text: string): string {
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
}
