import { sql, type Kysely } from 'kysely';
import type { BillingDatabase } from './schema';

/** The start of today (UTC), where the daily allowances begin. */
export const startOfUtcDay = sql<Date>`date_trunc('day', now() at time zone 'utc') at time zone 'utc'`;

/** Reads of the ledger's entries beyond one balance. */
export function ledgerEntriesRepository(db: Kysely<BillingDatabase>) {
  return {
    /** Entries of this reason written since the start of today (UTC). */
    async countSinceUtcMidnight(reason: string): Promise<number> {
      const row = await db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('reason', '=', reason)
        .where('created_at', '>=', startOfUtcDay)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}
