import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import amqp from 'amqplib';
import { eventSubscriptions } from '@gpt/contracts';
import { DEFAULT_RETRY_DELAYS_MS, deadLetterQueueOf, retryQueueOf } from '../bus';
import { classicServiceQueue, serviceQueue } from '../service';

/** Where the tests find real PostgreSQL, RabbitMQ and Redis (the local servers unless overridden). */
export const testInfra = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/** A name no other test file will pick: `<prefix>_<random>`, lowercase. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/**
 * Puts a message on the test broker by hand, as a producer's relay (or a broken producer) would:
 * under `routingKey`, persistent, resolved once the broker confirmed it. A string is sent as it is
 * (a poisoned body), anything else as JSON.
 */
export async function publishRaw(exchange: string, routingKey: string, body: unknown): Promise<void> {
  const connection = await amqp.connect(testInfra.amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    channel.publish(exchange, routingKey, content, { persistent: true, contentType: 'application/json' });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

/** Removes what a test's services declared on RabbitMQ: every service's queues (main, retry, dead) and the exchange. */
export async function deleteTestBroker(exchange: string): Promise<void> {
  const connection = await amqp.connect(testInfra.amqpUrl);
  try {
    const channel = await connection.createChannel();
    const services = Object.keys(eventSubscriptions);
    for (const queue of services.flatMap((service) =>
      [serviceQueue, classicServiceQueue].map((name) => name(service, exchange)),
    )) {
      for (const name of [
        queue,
        deadLetterQueueOf(queue),
        ...DEFAULT_RETRY_DELAYS_MS.map((ms) => retryQueueOf(queue, ms)),
      ]) {
        await channel.deleteQueue(name);
      }
    }
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** A loopback port nobody listens on at the moment of asking (for a server that must know its port before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
