import type { Kysely } from 'kysely';
import type { Logger } from '../logger';
import type { BusTables } from './migrations';
import type { Envelope, Transport } from './types';

export interface OutboxRelayOptions {
  db: Kysely<BusTables>;
  transport: Transport;
  logger: Logger;
  intervalMs: number;
  batchSize?: number;
  onPublished(envelope: Envelope): void;
}

/**
 * Moves committed outbox rows to the broker, oldest first, and marks each sent only once the
 * broker confirmed it. Rows are locked with SKIP LOCKED, so replicas of a service share the
 * work instead of publishing the same row twice. A broker outage leaves rows waiting.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wanted = false;
  private stopped = true;
  private failing = false;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.notify(), this.options.intervalMs);
    this.timer.unref();
    this.notify();
  }

  /** Looks for unsent rows now (call after a commit that wrote some). */
  notify(): void {
    if (this.stopped) return;
    this.wanted = true;
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Relays what is committed now and resolves when that pass is over (rows stay if the broker is down). */
  async flush(): Promise<void> {
    this.notify();
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      try {
        while (!this.stopped && (await this.relayBatch())) {
          // A full batch went out: there may be more.
        }
      } catch (err) {
        this.options.logger.error({ err }, 'outbox relay pass failed');
      }
    }
  }

  /** Returns true when a full batch was sent, i.e. more rows may be waiting. */
  private async relayBatch(): Promise<boolean> {
    const { db, transport } = this.options;
    // No use locking rows while the broker is away; its return wakes the relay.
    if (
      !(await transport.ping().then(
        () => true,
        () => false,
      ))
    )
      return false;
    const published: Envelope[] = [];
    const result = await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('outbox')
        .select(['seq', 'payload'])
        .where('sent_at', 'is', null)
        .orderBy('seq')
        .limit(this.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return { full: false, failures: [] as unknown[] };
      const envelopes = rows.map((row) => JSON.parse(row.payload) as Envelope);
      // Sent one after the other on the channel, confirmed together.
      const outcomes = await Promise.allSettled(envelopes.map((envelope) => transport.publish(envelope)));
      const sentSeqs = rows.filter((_, i) => outcomes[i]?.status === 'fulfilled').map((row) => row.seq);
      if (sentSeqs.length > 0) {
        await trx.updateTable('outbox').set({ sent_at: new Date() }).where('seq', 'in', sentSeqs).execute();
      }
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') published.push(envelopes[i] as Envelope);
      });
      const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      return { full: rows.length === this.batchSize && failures.length === 0, failures };
    });
    for (const envelope of published) this.options.onPublished(envelope);
    this.reportFailures(result.failures, published.length);
    return result.full;
  }

  // One warning per outage, not one per poll.
  private reportFailures(failures: unknown[], sent: number): void {
    if (failures.length > 0 && !this.failing) {
      this.options.logger.warn({ err: failures[0], waiting: failures.length }, 'outbox rows wait for the broker');
    }
    if (failures.length === 0 && sent > 0 && this.failing) this.options.logger.info('outbox relay publishes again');
    if (failures.length > 0) this.failing = true;
    else if (sent > 0) this.failing = false;
  }
}
