import { sql, type Kysely } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase, LedgerBucket } from './schema';

/**
 * A paid tariff set aside while a promo code's higher tariff runs: it comes back for `seconds`
 * when that tariff ends, with at most `includedCredits` of the included credits left then.
 */
export interface ResumedTariff {
  tariffId: number;
  seconds: number;
  includedCredits: number;
}

/** A user's balance row joined with its tariff, as the domain reads it. */
export interface Balance {
  userId: number;
  credits: number;
  includedCredits: number;
  /** Credits reserved by active holds not yet expired: they are not available. */
  heldCredits: number;
  tariff: { id: number; name: string; monthlyPrice: string; creditsPerRuble: number; canGenerateImages: boolean };
  tariffEndDate: Date | null;
  resume: ResumedTariff | null;
  moneyDeposited: string;
  /** The welcome grant this balance holds (0: none). */
  welcomeCredits: number;
  version: number;
}

export interface BalanceUpdate {
  credits: number;
  includedCredits: number;
  tariffId: number;
  tariffEndDate: Date | null;
  resume: ResumedTariff | null;
  /** Roubles added to the deposited total (a decimal string, may be negative on a merge). */
  depositedDelta: string;
  welcomeCredits: number;
  version: number;
}

export interface LedgerEntryRow {
  userId: number;
  reference: string;
  bucket: LedgerBucket;
  amount: number;
  balanceAfter: number;
  reason: string;
  adminId: number | null;
  paymentId: number | null;
  tariffId: number | null;
  description?: string;
}

/** The held credits of the balance row: active holds stop counting at their `expires_at`. */
const heldCredits = sql<string>`coalesce((
  select sum(holds.amount) from holds
  where holds.user_id = balances.user_id and holds.status = 'active' and holds.expires_at > now()
), 0)`;

/** What a balance may still spend: both buckets less what is held. */
export const availableCredits = (balance: Balance): number =>
  balance.credits + balance.includedCredits - balance.heldCredits;

export function balancesRepository(db: Kysely<BillingDatabase>) {
  const selectBalance = () =>
    db
      .selectFrom('balances')
      .innerJoin('tariffs', 'tariffs.id', 'balances.tariff_id')
      .select([
        'balances.user_id',
        'balances.credits',
        'balances.included_credits',
        'balances.tariff_end_date',
        'balances.resume_tariff_id',
        'balances.resume_seconds',
        'balances.resume_included_credits',
        'balances.money_deposited',
        'balances.welcome_credits',
        'balances.version',
        'tariffs.id as tariff_id',
        'tariffs.name as tariff_name',
        'tariffs.monthly_price',
        'tariffs.credits_per_ruble',
        'tariffs.can_generate_images',
        heldCredits.as('held_credits'),
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof selectBalance>['executeTakeFirstOrThrow']>>;
  const toBalance = (row: Row): Balance => ({
    userId: row.user_id,
    credits: toSafeInt(row.credits),
    includedCredits: toSafeInt(row.included_credits),
    heldCredits: toSafeInt(row.held_credits),
    tariff: {
      id: row.tariff_id,
      name: row.tariff_name,
      monthlyPrice: row.monthly_price,
      creditsPerRuble: row.credits_per_ruble,
      canGenerateImages: row.can_generate_images,
    },
    tariffEndDate: row.tariff_end_date,
    resume:
      row.resume_tariff_id === null
        ? null
        : {
            tariffId: row.resume_tariff_id,
            seconds: toSafeInt(row.resume_seconds ?? '0'),
            includedCredits: toSafeInt(row.resume_included_credits ?? '0'),
          },
    moneyDeposited: row.money_deposited,
    welcomeCredits: toSafeInt(row.welcome_credits),
    version: row.version,
  });

  return {
    /** Creates the row (Base, nothing on it, version 1) if missing; answers true when this call created it. */
    async createIfMissing(userId: number, defaultTariffId: number): Promise<boolean> {
      const row = await db
        .insertInto('balances')
        .values({ user_id: userId, tariff_id: defaultTariffId, money_deposited: '0', version: 1 })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async find(userId: number): Promise<Balance | null> {
      const row = await selectBalance().where('balances.user_id', '=', userId).executeTakeFirst();
      return row ? toBalance(row) : null;
    },

    /**
     * Locks the users' balance rows (in id order, so two transactions never wait on each other in
     * a circle) until the transaction ends, and reads them; users without a balance are left out.
     */
    async lock(userIds: number[]): Promise<Map<number, Balance>> {
      await db
        .selectFrom('balances')
        .select('user_id')
        .where('user_id', 'in', userIds)
        .orderBy('user_id')
        .forUpdate()
        .execute();
      // Read once the locks are held: a statement that waited for a lock still sees the holds of
      // its own start, so the held credits come from this later statement.
      const rows = await selectBalance().where('balances.user_id', 'in', userIds).execute();
      return new Map(rows.map((row) => [row.user_id, toBalance(row)]));
    },

    async update(userId: number, update: BalanceUpdate): Promise<void> {
      await db
        .updateTable('balances')
        .set({
          credits: update.credits,
          included_credits: update.includedCredits,
          tariff_id: update.tariffId,
          tariff_end_date: update.tariffEndDate,
          resume_tariff_id: update.resume?.tariffId ?? null,
          resume_seconds: update.resume?.seconds ?? null,
          resume_included_credits: update.resume?.includedCredits ?? null,
          money_deposited: sql<string>`money_deposited + ${update.depositedDelta}::numeric`,
          welcome_credits: update.welcomeCredits,
          version: update.version,
          updated_at: sql<Date>`now()`,
        })
        .where('user_id', '=', userId)
        .execute();
    },

    /** The user an already applied reference was written for (the first, for a merge); null when it is new. */
    async referenceOwner(reference: string): Promise<number | null> {
      const row = await db
        .selectFrom('ledger_entries')
        .select('user_id')
        .where('reference', '=', reference)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row?.user_id ?? null;
    },

    async insertEntries(entries: LedgerEntryRow[]): Promise<void> {
      if (entries.length === 0) return;
      await db
        .insertInto('ledger_entries')
        .values(
          entries.map((entry) => ({
            user_id: entry.userId,
            reference: entry.reference,
            bucket: entry.bucket,
            amount: entry.amount,
            balance_after: entry.balanceAfter,
            reason: entry.reason,
            admin_id: entry.adminId,
            payment_id: entry.paymentId,
            tariff_id: entry.tariffId,
            description: entry.description ?? null,
          })),
        )
        .execute();
    },

    /** Gives the balance a new version (its holds changed); the caller has locked it. */
    async bumpVersion(userId: number): Promise<void> {
      await db
        .updateTable('balances')
        .set({ version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
        .where('user_id', '=', userId)
        .execute();
    },

    /** Gives every holder of the tariff a new version (its name or price changed); answers their ids. */
    async bumpHolders(tariffId: number): Promise<number[]> {
      const rows = await db
        .updateTable('balances')
        .set({ version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
        .where('tariff_id', '=', tariffId)
        .returning('user_id')
        .execute();
      return rows.map((row) => row.user_id);
    },

    /** Balances whose paid period has ended (not Base), oldest first. */
    async expired(now: Date, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('balances')
        .select('user_id')
        .where('tariff_end_date', '<=', now)
        // A renewal declined and retried keeps its tariff until the grace period ends (docs/money.md, Subscriptions).
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('subscriptions')
                .select('subscriptions.id')
                .whereRef('subscriptions.user_id', '=', 'balances.user_id')
                .whereRef('subscriptions.tariff_id', '=', 'balances.tariff_id')
                .where('subscriptions.status', '=', 'past_due')
                .where('subscriptions.grace_until', '>', now),
            ),
          ),
        )
        .orderBy('tariff_end_date')
        .limit(limit)
        .execute();
      return rows.map((row) => row.user_id);
    },
  };
}
