import net from 'node:net';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { Kysely, Migration } from 'kysely';
import { z } from 'zod';
import type { Consumer } from '../src/bus';
import { createLogger } from '../src/logger';
import { testInfra } from '../src/testing';

/** The events the bus tests speak. */
export const testSchemas = {
  'thing.happened': z.object({ n: z.number() }),
  'thing.failed': z.object({ n: z.number() }),
};
export type TestSchemas = typeof testSchemas;

/** A handler's visible effect, one row per handled event and consumer. */
export interface TestDB {
  effects: { event_id: string; consumer: string; n: number };
}
export type TestConsumer = Consumer<TestDB, TestSchemas>;

export const effectsMigration: Record<string, Migration> = {
  '0001_effects': {
    async up(db) {
      await db.schema
        .createTable('effects')
        .addColumn('event_id', 'uuid', (col) => col.notNull())
        .addColumn('consumer', 'text', (col) => col.notNull())
        .addColumn('n', 'integer', (col) => col.notNull())
        .execute();
    },
  },
};

export const silentLogger = createLogger({ name: 'bus-test', level: 'silent' });

export async function effectsOf(db: Kysely<TestDB>, eventId: string) {
  return db.selectFrom('effects').selectAll().where('event_id', '=', eventId).execute();
}

/** A consumer whose effect is one `effects` row, written in the bus's transaction. */
export function recordingConsumer(
  event: keyof TestSchemas,
  name?: string,
): Consumer<TestDB, TestSchemas, keyof TestSchemas, void, void> {
  return {
    event,
    name,
    async handle(trx, envelope) {
      await trx
        .insertInto('effects')
        .values({ event_id: envelope.id, consumer: name ?? event, n: envelope.data.n })
        .execute();
    },
  };
}

/** A promise plus the function that resolves it. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

export function rawEnvelope(type: string, data: unknown) {
  return { id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), producer: 'test', data };
}

/**
 * A TCP hop between the bus and RabbitMQ that a test can close (broker unreachable), reopen on
 * the same port, or use to kill live connections, without touching the shared RabbitMQ server.
 */
export class TcpProxy {
  port = 0;
  accepted = 0;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  /** Each open connection: what the client sends, and the socket to the broker it goes to. */
  private readonly links = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private waiters: (() => void)[] = [];
  private readonly target = new URL(testInfra.amqpUrl);

  /** The AMQP URL that goes through this proxy. */
  get url(): string {
    const url = new URL(testInfra.amqpUrl);
    url.port = String(this.port);
    return url.toString();
  }

  get isOpen(): boolean {
    return this.server !== null;
  }

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5672), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
      const link = { client, upstream };
      this.links.add(link);
      client.on('close', () => this.links.delete(link));
      this.accepted += 1;
      this.waiters.splice(0).forEach((resolve) => resolve());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /**
   * From now on nothing the open connections send reaches the broker (an ack, say), while what the
   * broker sends still arrives, as when a process hangs between doing the work and acknowledging it.
   * Killing the connections then loses what was held back, as its crash would.
   */
  holdUpstream(): void {
    for (const { client, upstream } of this.links) {
      client.unpipe(upstream);
      client.pause();
    }
  }

  /** Every live connection through the proxy dies at once, as when a broker node goes down. */
  killConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Stops accepting (connection refused) and kills what is open. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.killConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves at the next accepted connection. */
  nextConnection(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** A direct connection for what a test does by hand: raw publishes, reading queues, cleanup. */
export class BrokerAdmin {
  private constructor(
    private readonly connection: ChannelModel,
    readonly channel: ConfirmChannel,
  ) {}

  static async connect(): Promise<BrokerAdmin> {
    const connection = await amqp.connect(testInfra.amqpUrl);
    return new BrokerAdmin(connection, await connection.createConfirmChannel());
  }

  async publish(exchange: string, routingKey: string, body: string | object): Promise<void> {
    const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    this.channel.publish(exchange, routingKey, content, { persistent: true });
    await this.channel.waitForConfirms();
  }

  /** Takes every message now in the queue. */
  async drain(queue: string) {
    const messages = [];
    for (;;) {
      const message = await this.channel.get(queue, { noAck: true });
      if (!message) return messages;
      messages.push(message);
    }
  }

  async messageCount(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).messageCount;
  }

  /** The broker's answer to declaring `queue` as a plain durable classic queue: its refusal, or null. */
  async declareClassic(queue: string): Promise<string | null> {
    const probe = await this.connection.createChannel();
    probe.on('error', () => {});
    try {
      await probe.assertQueue(queue, { durable: true });
      await probe.close();
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  async cleanUp(exchange: string, queues: string[]): Promise<void> {
    for (const queue of queues) await this.channel.deleteQueue(queue);
    await this.channel.deleteExchange(exchange);
    await this.connection.close();
  }
}
