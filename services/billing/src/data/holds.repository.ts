import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase, HoldStatus } from './schema';

/** A hold as the domain reads it. */
export interface Hold {
  id: string;
  userId: number;
  amount: number;
  status: HoldStatus;
  expiresAt: Date;
}

/** How a hold ends: charged by its message, given back, or left to lapse. */
export type HoldOutcome = Exclude<HoldStatus, 'active'>;

export function holdsRepository(db: Kysely<BillingDatabase>) {
  const toHold = (row: { id: string; user_id: number; amount: string; status: HoldStatus; expires_at: Date }) => ({
    id: row.id,
    userId: row.user_id,
    amount: toSafeInt(row.amount),
    status: row.status,
    expiresAt: row.expires_at,
  });
  const columns = ['id', 'user_id', 'amount', 'status', 'expires_at'] as const;

  return {
    async insert(userId: number, amount: number, ttlSec: number): Promise<Hold> {
      const row = await db
        .insertInto('holds')
        .values({
          id: randomUUID(),
          user_id: userId,
          amount,
          status: 'active',
          expires_at: sql<Date>`now() + make_interval(secs => ${ttlSec})`,
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toHold(row);
    },

    async find(id: string): Promise<Hold | null> {
      const row = await db.selectFrom('holds').select(columns).where('id', '=', id).executeTakeFirst();
      return row ? toHold(row) : null;
    },

    /**
     * Ends an active hold of `userId` (whose balance the caller has locked); answers false when it is
     * no longer active or belongs to another balance now (a merge moved it).
     */
    async finish(id: string, userId: number, outcome: HoldOutcome, messageId: number | null = null): Promise<boolean> {
      const result = await db
        .updateTable('holds')
        .set({ status: outcome, settled_at: sql<Date>`now()`, message_id: messageId })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Active holds past their expiry, oldest first. */
    async lapsed(now: Date, limit: number): Promise<Hold[]> {
      const rows = await db
        .selectFrom('holds')
        .select(columns)
        .where('status', '=', 'active')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map(toHold);
    },

    /** A merged account's active holds now count against the survivor's balance. */
    async moveActive(fromUserId: number, toUserId: number): Promise<void> {
      await db
        .updateTable('holds')
        .set({ user_id: toUserId })
        .where('user_id', '=', fromUserId)
        .where('status', '=', 'active')
        .execute();
    },
  };
}
