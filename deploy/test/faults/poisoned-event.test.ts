import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type AdminStats, eventSubscriptions } from '@gpt/contracts';
import { deadLetterQueueOf, serviceQueue } from '@gpt/kit';
import { publishRaw, testInfra, uniqueName } from '@gpt/kit/testing';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { busOf, callApi, MANY_USERS_ENV, signUp, startTestStack, type TestStack } from '../../src/testing';
import { eventually } from '../support/async';
import { type Customer, signIn } from './fault-stack';

/* Nothing is stopped here, so the product runs on the shared servers (fresh databases, its own exchange). */
let stack: TestStack;
let adminToken: string;
let connection: ChannelModel;
let channel: ConfirmChannel;

beforeAll(async () => {
  stack = await startTestStack(MANY_USERS_ENV);
  adminToken = await signIn(stack.url, stack.admin);
  connection = await amqp.connect(testInfra.amqpUrl);
  channel = await connection.createConfirmChannel();
}, 120_000);

afterAll(async () => {
  await connection?.close();
  await stack?.close();
});

/** Every service that consumes user.registered. */
const CONSUMERS = Object.entries(eventSubscriptions)
  .filter(([, types]) => (types as readonly string[]).includes('user.registered'))
  .map(([service]) => service);

const exchange = () => stack.services[0]!.deps.config.AMQP_EXCHANGE;

/** Every consumer of user.registered has handled (acknowledged) the sign-up of each of these customers. */
async function everyConsumerHandled(customers: Customer[]): Promise<void> {
  await Promise.all(
    CONSUMERS.flatMap((service) =>
      customers.map((customer) =>
        busOf(stack, service).waitFor(
          'acked',
          (e) => e.type === 'user.registered' && (e.data as { user_id: number }).user_id === customer.id,
          30_000,
        ),
      ),
    ),
  );
}

async function usersCount(): Promise<number> {
  return (await callApi<AdminStats>(stack.url, 'GET', '/api/admin/stats', { token: adminToken })).body.usersCount;
}

const signUps = (count: number) => Promise.all(Array.from({ length: count }, () => signUp(stack.url)));

describe('a poisoned event among many', () => {
  test('when a malformed and an unreadable user.registered arrive among real sign-ups, then each consumer dead-letters them with the reason and handles the rest', async () => {
    const before = await usersCount();
    const poisoned = {
      id: randomUUID(),
      type: 'user.registered',
      occurredAt: new Date().toISOString(),
      producer: 'auth',
      data: { user_id: 'нет такого', email: 42 },
    };
    const unreadable = `{"id": "${uniqueName('broken')}", "type": "user.registered", "data": {`;

    const first = await signUps(15);
    await publishRaw(exchange(), 'user.registered', JSON.stringify(poisoned));
    await publishRaw(exchange(), 'user.registered', unreadable);
    const second = await signUps(15);

    await everyConsumerHandled([...first, ...second]);
    for (const service of CONSUMERS) {
      await busOf(stack, service).waitFor('dead-lettered', (e) => e.id === poisoned.id, 30_000);
      await busOf(stack, service).waitFor('dead-lettered', (e) => e.data === unreadable, 30_000);
      const dead = await drain(deadLetterQueueOf(serviceQueue(service, exchange())));
      // Both, in whichever order the consumer's concurrent deliveries settled.
      expect(dead).toHaveLength(2);
      expect(dead).toEqual(
        expect.arrayContaining([
          { body: JSON.stringify(poisoned), reason: expect.stringMatching(/^poisoned: bad data: /) },
          { body: unreadable, reason: 'poisoned: the body is not JSON' },
        ]),
      );
    }

    // The consumers live on: still subscribed, and the next sign-ups are handled too.
    for (const service of CONSUMERS) {
      expect((await channel.checkQueue(serviceQueue(service, exchange()))).consumerCount).toBe(1);
    }
    const third = await signUps(5);
    await everyConsumerHandled(third);
    await eventually(async () => expect(await usersCount()).toBe(before + 35));
  }, 120_000);
});

/** Takes every message now in the queue: its body and the reason it was dead-lettered. */
async function drain(queue: string) {
  const messages = [];
  for (;;) {
    const message = await channel.get(queue, { noAck: true });
    if (!message) return messages;
    messages.push({ body: message.content.toString(), reason: message.properties.headers?.['x-dead-reason'] });
  }
}
