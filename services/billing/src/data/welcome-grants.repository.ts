import { sql, type Kysely } from 'kysely';
import { startOfUtcDay } from './ledger-entries.repository';
import type { BillingDatabase } from './schema';

/** The welcome grants given, by the address their accounts signed up from. */
export function welcomeGrantsRepository(db: Kysely<BillingDatabase>) {
  return {
    async record(userId: number, address: string | null): Promise<void> {
      await db.insertInto('welcome_grants').values({ user_id: userId, address }).execute();
    },

    /**
     * Locks the address's grants until the transaction ends (an advisory lock on its name), so
     * concurrent confirmations from one address are counted one after another.
     */
    async lockAddress(address: string): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtext(${`welcome-grants:${address}`}))`.execute(db);
    },

    /** Grants given since the start of today (UTC) to accounts from this address. */
    async countFromAddressToday(address: string): Promise<number> {
      const row = await db
        .selectFrom('welcome_grants')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('address', '=', address)
        .where('granted_at', '>=', startOfUtcDay)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}
