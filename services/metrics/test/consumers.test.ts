import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { deadLetterQueueOf, serviceQueue } from '@gpt/kit';
import { publishRaw, testInfra } from '@gpt/kit/testing';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { sql } from 'kysely';
import { MetricsHarness, messageRecorded, moscow } from './support/harness';

let metrics: MetricsHarness;
let connection: ChannelModel;
let channel: ConfirmChannel;

beforeAll(async () => {
  metrics = await MetricsHarness.start();
  connection = await amqp.connect(testInfra.amqpUrl);
  channel = await connection.createConfirmChannel();
});
afterAll(async () => {
  await connection?.close();
  await metrics?.stop();
});

const exchange = () => metrics.service.deps.config.AMQP_EXCHANGE;

function envelopeOf(data: object) {
  return {
    id: crypto.randomUUID(),
    type: 'message.recorded',
    occurredAt: new Date().toISOString(),
    producer: 'chat-history',
    data,
  };
}

/** Messages of one Moscow day, as the dashboard counts them. */
async function messagesOn(day: string): Promise<number> {
  metrics.clock.now = new Date(moscow(`${day} 23:00`));
  return (await metrics.stats()).messagesToday as number;
}

const dayCount = () =>
  metrics.db
    .selectFrom('event_log')
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();

describe('metrics consumers', () => {
  test('when the same event is delivered twice, then it counts once and is logged once', async () => {
    const envelope = envelopeOf(messageRecorded({ created_at: moscow('2025-04-01 12:00') }));
    await publishRaw(exchange(), 'message.recorded', JSON.stringify(envelope));
    await publishRaw(exchange(), 'message.recorded', JSON.stringify(envelope));
    await metrics.bus.waitFor('acked', (event) => event.id === envelope.id);
    await metrics.bus.waitFor('acked', (event) => event.id === envelope.id);

    expect(await messagesOn('2025-04-01')).toBe(1);
    const logged = await metrics.db.selectFrom('event_log').selectAll().where('event_id', '=', envelope.id).execute();
    expect(logged).toHaveLength(1);
  });

  test('when a message is not JSON or its data breaks the contract, then it goes to the dead-letter queue with no effect', async () => {
    const before = await dayCount();
    await publishRaw(exchange(), 'message.recorded', '{not json');
    await metrics.bus.waitFor('dead-lettered', (event) => event.data === '{not json');

    const bad = envelopeOf({ ...messageRecorded({ created_at: moscow('2025-04-02 12:00') }), total_cost: 0.1 });
    await publishRaw(exchange(), 'message.recorded', JSON.stringify(bad));
    await metrics.bus.waitFor('dead-lettered', (event) => event.id === bad.id);

    const queue = deadLetterQueueOf(serviceQueue('metrics', metrics.service.deps.config.AMQP_EXCHANGE));
    expect((await channel.checkQueue(queue)).messageCount).toBe(2);
    expect(await messagesOn('2025-04-02')).toBe(0);
    expect(await dayCount()).toEqual(before);
  });

  test('when the handler fails, then the event is retried and counts once it succeeds', async () => {
    await sql`alter table event_log rename to event_log_away`.execute(metrics.db);
    const envelope = envelopeOf(messageRecorded({ created_at: moscow('2025-04-03 12:00') }));
    await publishRaw(exchange(), 'message.recorded', JSON.stringify(envelope));
    try {
      await metrics.bus.waitFor('retried', (event) => event.id === envelope.id);
    } finally {
      await sql`alter table event_log_away rename to event_log`.execute(metrics.db);
    }
    await metrics.bus.waitFor('acked', (event) => event.id === envelope.id);
    expect(await messagesOn('2025-04-03')).toBe(1);
  });
});
