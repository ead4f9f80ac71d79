import { parseMessage } from '@gpt/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from '../logger';
import type { BusTables } from './migrations';
import type { Observer } from './observer';
import type { BusOccurrenceKind, Consumer, Delivery, Envelope, EventOf, EventSchemaMap } from './types';

export interface InboxConsumerOptions<DB, S extends EventSchemaMap> {
  db: Kysely<BusTables>;
  schemas: S;
  consumers: Consumer<DB, S>[];
  maxAttempts: number;
  retryDelaysMs: number[];
  logger: Logger;
  observer: Observer;
}

/**
 * Turns each delivery into at most one effect per consumer: a poisoned message goes straight to
 * the dead letters; otherwise each consumer runs in a transaction that first claims
 * (consumer, event id) in the inbox, so a redelivered event is acknowledged and skipped (before
 * its `before` step, when the inbox already has it); an idempotent consumer runs without either.
 * A failing handler rolls back and the message is retried after a delay, then dead-lettered.
 */
export function createInboxConsumer<DB, S extends EventSchemaMap>(
  options: InboxConsumerOptions<DB, S>,
): (delivery: Delivery) => Promise<void> {
  const { db, schemas, maxAttempts, retryDelaysMs, logger, observer } = options;
  const byType = new Map<string, Consumer<DB, S>[]>();
  for (const consumer of options.consumers) {
    byType.set(consumer.event, [...(byType.get(consumer.event) ?? []), consumer]);
  }

  const inbox = (consumer: Consumer<DB, S>) => consumer.name ?? consumer.event;

  async function alreadyHandled(consumer: Consumer<DB, S>, envelope: EventOf<S>): Promise<boolean> {
    const row = await db
      .selectFrom('inbox')
      .select('event_id')
      .where('consumer', '=', inbox(consumer))
      .where('event_id', '=', envelope.id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async function runOnce(consumer: Consumer<DB, S>, envelope: EventOf<S>): Promise<void> {
    if (consumer.idempotent) {
      const value = await consumer.before?.(envelope);
      // Outside a transaction: each of its statements commits on its own (see Consumer.idempotent).
      consumer.afterCommit?.(envelope, await consumer.handle(db as unknown as Transaction<DB>, envelope, value));
      return;
    }
    // A duplicate skips `before`, which may call other services; the claim below still decides.
    if (consumer.before && (await alreadyHandled(consumer, envelope))) return;
    const value = await consumer.before?.(envelope);
    const outcome = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('inbox')
        .values({ consumer: inbox(consumer), event_id: envelope.id })
        .onConflict((oc) => oc.columns(['consumer', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (!claimed) return null;
      // The bus's own tables are a part of the service's database, so this is the caller's DB.
      return { result: await consumer.handle(trx as unknown as Transaction<DB>, envelope, value) };
    });
    if (outcome) consumer.afterCommit?.(envelope, outcome.result);
  }

  async function settle(kind: BusOccurrenceKind, envelope: Envelope, act: () => Promise<boolean>): Promise<void> {
    try {
      // false: the channel it came on is gone, the broker will deliver it again.
      if (await act()) observer.record(kind, envelope);
    } catch (err) {
      logger.warn(
        { err, eventId: envelope.id, type: envelope.type },
        'could not settle a message; it will be redelivered',
      );
    }
  }

  return async (delivery) => {
    const parsed = parseMessage(schemas, delivery.body);
    if (!parsed.ok) {
      const { id, type } = parsed.envelope;
      logger.error({ eventId: id, type, reason: parsed.reason }, 'poisoned message dead-lettered');
      await settle('dead-lettered', parsed.envelope, () => delivery.deadLetter(parsed.reason));
      return;
    }
    const envelope = parsed.envelope as EventOf<S>;
    const log = { eventId: envelope.id, type: envelope.type, attempt: delivery.attempt };
    try {
      for (const consumer of byType.get(envelope.type) ?? []) await runOnce(consumer, envelope);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (delivery.attempt >= maxAttempts) {
        logger.error({ ...log, err }, 'event handler failed for the last time; dead-lettered');
        await settle('dead-lettered', envelope, () =>
          delivery.deadLetter(`handler failed ${delivery.attempt} times: ${reason}`),
        );
      } else {
        const delayMs = retryDelaysMs[Math.min(delivery.attempt, retryDelaysMs.length) - 1] ?? 0;
        logger.warn({ ...log, err, delayMs }, 'event handler failed; will retry');
        await settle('retried', envelope, () => delivery.retry(delayMs, reason));
      }
      return;
    }
    await settle('acked', envelope, () => delivery.ack());
  };
}
