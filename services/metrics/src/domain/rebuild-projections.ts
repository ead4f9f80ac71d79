import { parseEvent } from '@gpt/contracts';
import { sql, type Kysely } from 'kysely';
import { eventLogRepository } from '../data/event-log.repository';
import { projectionsRepository } from '../data/projections.repository';
import type { MetricsDatabase } from '../data/schema';
import { projectEvent, type MetricsEvent } from './project-event';

const BATCH = 500;

/**
 * Recomputes every projection from scratch out of the event log: empties them, then folds each
 * logged event in arrival order through the same `projectEvent` live consumption uses. One
 * transaction: readers see the old figures until the new ones are complete, and consumers wait
 * (the log is locked against appends) instead of slipping an event between the two.
 */
export async function rebuildProjections(db: Kysely<MetricsDatabase>): Promise<{ events: number }> {
  return db.transaction().execute(async (trx) => {
    await sql`lock table event_log in share mode`.execute(trx);
    await projectionsRepository(trx).clear();
    let events = 0;
    let after = '0';
    for (;;) {
      const batch = await eventLogRepository(trx).readAfter(after, BATCH);
      for (const logged of batch) await projectEvent(trx, parseEvent(logged.envelope) as MetricsEvent);
      events += batch.length;
      const last = batch.at(-1);
      if (!last) return { events };
      after = last.seq;
    }
  });
}
