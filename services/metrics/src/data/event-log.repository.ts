import type { Envelope } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { MetricsDatabase } from './schema';

export interface LoggedEvent {
  seq: string;
  envelope: unknown;
}

/** The append-only log of consumed events. */
export function eventLogRepository(db: Kysely<MetricsDatabase>) {
  return {
    async append(envelope: Envelope): Promise<void> {
      await db
        .insertInto('event_log')
        .values({ event_id: envelope.id, type: envelope.type, envelope: JSON.stringify(envelope) })
        .execute();
    },

    /** Up to `limit` events logged after `afterSeq`, in arrival order. */
    async readAfter(afterSeq: string, limit: number): Promise<LoggedEvent[]> {
      const rows = await db
        .selectFrom('event_log')
        .select(['seq', 'envelope'])
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ seq: row.seq, envelope: JSON.parse(row.envelope) as unknown }));
    },
  };
}
