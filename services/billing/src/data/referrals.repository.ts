import { sql, type Kysely } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase } from './schema';

/** A bonus paid for one of a friend's payments. */
export interface ReferralReward {
  paymentId: string;
  referrerId: number;
  friendId: number;
  credits: number;
  revokedAt: Date | null;
}

/** The accounts that are one person with `holder`: itself and those merged into it. */
const personIds = (db: Kysely<BillingDatabase>, holder: number) =>
  db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', holder), eb('merged_into', '=', holder)]));

export function referralsRepository(db: Kysely<BillingDatabase>) {
  return {
    /**
     * Records the bonus of one payment; false when that payment already has one (a replayed or
     * duplicated `payment.succeeded` pays nothing again).
     */
    async record(reward: Omit<ReferralReward, 'revokedAt'>): Promise<boolean> {
      const row = await db
        .insertInto('referral_rewards')
        .values({
          payment_id: reward.paymentId,
          referrer_id: reward.referrerId,
          friend_id: reward.friendId,
          credits: reward.credits,
        })
        .onConflict((oc) => oc.column('payment_id').doNothing())
        .returning('payment_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Credits the inviter keeps from this friend so far (bonuses less what refunds took back). */
    async earnedFrom(referrerId: number, friendId: number): Promise<number> {
      const row = await db
        .selectFrom('referral_rewards')
        .select(sql<string>`coalesce(sum(credits - revoked_credits), 0)`.as('earned'))
        .where('referrer_id', '=', referrerId)
        .where('friend_id', '=', friendId)
        .executeTakeFirstOrThrow();
      return toSafeInt(row.earned);
    },

    /** Locks the bonus of a payment that was not taken back yet. */
    async lockOpen(paymentId: string): Promise<ReferralReward | null> {
      const row = await db
        .selectFrom('referral_rewards')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .where('revoked_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      return row
        ? {
            paymentId: row.payment_id,
            referrerId: row.referrer_id,
            friendId: row.friend_id,
            credits: toSafeInt(row.credits),
            revokedAt: row.revoked_at,
          }
        : null;
    },

    /** Open bonuses between two accounts (either way round): one person paid by themselves. */
    async openBetween(a: number, b: number): Promise<string[]> {
      const rows = await db
        .selectFrom('referral_rewards')
        .select('payment_id')
        .where('revoked_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('referrer_id', '=', a), eb('friend_id', '=', b)]),
            eb.and([eb('referrer_id', '=', b), eb('friend_id', '=', a)]),
          ]),
        )
        .execute();
      return rows.map((row) => row.payment_id);
    },

    /** The refund's take-back: `taken` now, `pending` when the inviter's holds end, `lost` never. */
    async markRevoked(paymentId: string, taken: number, lost: number, pending: number): Promise<void> {
      await db
        .updateTable('referral_rewards')
        .set({ revoked_credits: taken, lost_credits: lost, pending_credits: pending, revoked_at: sql<Date>`now()` })
        .where('payment_id', '=', paymentId)
        .execute();
    },

    /** Bonuses of `holder` (or of accounts merged into it) still to take back, oldest first, locked. */
    async lockPending(holder: number): Promise<{ paymentId: string; pending: number }[]> {
      const rows = await db
        .selectFrom('referral_rewards')
        .select(['payment_id', 'pending_credits'])
        .where('referrer_id', 'in', personIds(db, holder))
        .where('pending_credits', '>', '0')
        .orderBy('revoked_at')
        .orderBy('payment_id')
        .forUpdate()
        .execute();
      return rows.map((row) => ({ paymentId: row.payment_id, pending: toSafeInt(row.pending_credits) }));
    },

    /** `taken` more of a pending bonus came back, and `lost` of it never will. */
    async settlePending(paymentId: string, taken: number, lost: number): Promise<void> {
      await db
        .updateTable('referral_rewards')
        .set({
          revoked_credits: sql<string>`revoked_credits + ${taken}`,
          lost_credits: sql<string>`lost_credits + ${lost}`,
          pending_credits: sql<string>`pending_credits - ${taken + lost}`,
        })
        .where('payment_id', '=', paymentId)
        .execute();
    },

    /** What a person's links brought: people invited, those who paid, credits kept. */
    async summary(holder: number): Promise<{ invited: number; paying: number; earned: number }> {
      const [invited, rewards] = await Promise.all([
        db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('referred_by', 'in', personIds(db, holder))
          .where('merged_into', 'is', null)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('referral_rewards')
          .select([
            sql<string>`count(distinct friend_id)`.as('paying'),
            sql<string>`coalesce(sum(credits - revoked_credits), 0)`.as('earned'),
          ])
          .where('referrer_id', 'in', personIds(db, holder))
          .executeTakeFirstOrThrow(),
      ]);
      return { invited: Number(invited.count), paying: Number(rewards.paying), earned: toSafeInt(rewards.earned) };
    },

    /** The dashboard tile since `from`: invited people, invited people who paid, bonus credits kept. */
    async statsSince(from: Date): Promise<{ invited: number; paying: number; credits: number }> {
      const [invited, rewards] = await Promise.all([
        db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('referred_by', 'is not', null)
          .where('merged_into', 'is', null)
          .where('created_at', '>=', from)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('referral_rewards')
          .select([
            sql<string>`count(distinct friend_id)`.as('paying'),
            sql<string>`coalesce(sum(credits - revoked_credits), 0)`.as('credits'),
          ])
          .where('created_at', '>=', from)
          .executeTakeFirstOrThrow(),
      ]);
      return { invited: Number(invited.count), paying: Number(rewards.paying), credits: toSafeInt(rewards.credits) };
    },
  };
}
