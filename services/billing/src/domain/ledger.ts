import { fromMinorUnits, toMinorUnits, type BalanceSnapshot, type CreditsChangeReason } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import { balancesRepository, type Balance, type LedgerEntryRow, type ResumedTariff } from '../data/balances.repository';
import type { BillingDatabase, LedgerBucket } from '../data/schema';
import { tariffsRepository } from '../data/tariffs.repository';

/** One movement of one bucket; positive adds, negative takes. */
export interface Posting {
  bucket: LedgerBucket;
  amount: number;
}

/** A change of one balance under one ledger reference. */
export interface BalanceChange {
  reason: CreditsChangeReason;
  postings: Posting[];
  /** The tariff and its end after the change (unchanged when absent). */
  tariff?: { id: number; endDate: Date | null };
  /** The paid tariff set aside after the change (unchanged when absent, none when null). */
  resume?: ResumedTariff | null;
  /** Roubles added to the deposited total, as a decimal string. */
  depositedDelta?: string;
  /** The welcome grant the balance holds after the change (unchanged when absent). */
  welcomeCredits?: number;
  adminId?: number;
  paymentId?: number;
  /** The entry in words («Возврат платежа 42», «Бонус за друга», «Промокод КОД»). */
  description?: string;
}

type Bus = BillingDeps['bus'];

/** Exact rouble addition on decimal strings (never through a float). */
function addMoney(a: string, b: string): string {
  return fromMinorUnits(toMinorUnits(a, 2) + toMinorUnits(b, 2), 2);
}

export function toSnapshot(balance: Balance): BalanceSnapshot {
  return {
    user_id: balance.userId,
    credits: balance.credits,
    included_credits: balance.includedCredits,
    held_credits: balance.heldCredits,
    tariff: {
      id: balance.tariff.id,
      name: balance.tariff.name,
      monthly_price: balance.tariff.monthlyPrice,
      end_date: balance.tariffEndDate?.toISOString() ?? null,
    },
    money_deposited: balance.moneyDeposited,
    welcome_credits: balance.welcomeCredits,
    version: balance.version,
  };
}

/**
 * The ledger inside one transaction: every balance change is a set of append-only entries under
 * a unique reference plus the balance row, updated together, and a `credits.changed` event with
 * the new snapshot and version written to the outbox in the same transaction.
 */
export function ledgerIn(trx: Kysely<BillingDatabase>, bus: Bus) {
  const balances = balancesRepository(trx);

  const publish = async (balance: Balance, reason: CreditsChangeReason, reference: string) => {
    const snapshot = toSnapshot(balance);
    await bus.publish(trx, 'credits.changed', {
      ...snapshot,
      reason,
      reference,
      changed_at: new Date().toISOString(),
    });
    return snapshot;
  };

  const ledger = {
    /** Gives a user seen for the first time a balance: Base, 0 credits; publishes it with reason 'initial'. */
    async ensure(userId: number): Promise<void> {
      const base = await tariffsRepository(trx).findDefault();
      if (!(await balances.createIfMissing(userId, base.id))) return;
      const created = await balances.find(userId);
      if (created) await publish(created, 'initial', `initial:${userId}`);
    },

    /** Locks the users' balances until the transaction ends, creating those not there yet. */
    async lock(userIds: number[]): Promise<Map<number, Balance>> {
      const locked = await balances.lock(userIds);
      const missing = userIds.filter((userId) => !locked.has(userId));
      if (missing.length === 0) return locked;
      for (const userId of missing) await ledger.ensure(userId);
      return balances.lock(userIds);
    },

    /** Whether anything was already written under this reference (a replay changes nothing). */
    applied: async (reference: string) => (await balances.referenceOwner(reference)) !== null,
    /** The user an applied reference belongs to, or null. */
    owner: (reference: string) => balances.referenceOwner(reference),

    /** Publishes the current snapshots of balances changed outside the ledger (their tariff was edited). */
    async announce(userIds: number[], reason: CreditsChangeReason, reference: string): Promise<void> {
      for (const userId of userIds) {
        const balance = await balances.find(userId);
        if (balance) await publish(balance, reason, reference);
      }
    },

    /**
     * Publishes a new version of a locked balance whose holds changed (no bucket moved, so no
     * ledger entry): the snapshot carries the held credits as they are now.
     */
    async touch(userId: number, reason: CreditsChangeReason, reference: string): Promise<BalanceSnapshot> {
      await balances.bumpVersion(userId);
      const balance = await balances.find(userId);
      if (!balance) throw new Error(`no balance for user ${userId}`);
      return publish(balance, reason, reference);
    },

    /** Writes the change of a locked balance and publishes the new snapshot. */
    async post(balance: Balance, reference: string, change: BalanceChange): Promise<BalanceSnapshot> {
      let credits = balance.credits;
      let included = balance.includedCredits;
      const entries: LedgerEntryRow[] = [];
      const postings: Posting[] = change.postings.length > 0 ? change.postings : [{ bucket: 'credits', amount: 0 }];
      for (const posting of postings) {
        if (posting.bucket === 'credits') credits += posting.amount;
        else included += posting.amount;
        entries.push({
          userId: balance.userId,
          reference,
          bucket: posting.bucket,
          amount: posting.amount,
          balanceAfter: posting.bucket === 'credits' ? credits : included,
          reason: change.reason,
          adminId: change.adminId ?? null,
          paymentId: change.paymentId ?? null,
          tariffId: change.tariff?.id ?? null,
          description: change.description,
        });
      }
      await balances.insertEntries(entries);
      const tariffId = change.tariff?.id ?? balance.tariff.id;
      const depositedDelta = change.depositedDelta ?? '0.00';
      const welcomeCredits = change.welcomeCredits ?? balance.welcomeCredits;
      const resume = change.resume === undefined ? balance.resume : change.resume;
      await balances.update(balance.userId, {
        credits,
        includedCredits: included,
        tariffId,
        tariffEndDate: change.tariff ? change.tariff.endDate : balance.tariffEndDate,
        resume,
        depositedDelta,
        welcomeCredits,
        version: balance.version + 1,
      });
      // Another tariff's name and price are read back; otherwise the new balance is known here.
      const updated: Balance | null =
        tariffId === balance.tariff.id
          ? {
              ...balance,
              credits,
              includedCredits: included,
              tariffEndDate: change.tariff ? change.tariff.endDate : balance.tariffEndDate,
              resume,
              moneyDeposited: addMoney(balance.moneyDeposited, depositedDelta),
              welcomeCredits,
              version: balance.version + 1,
            }
          : await balances.find(balance.userId);
      if (!updated) throw new Error(`balance of user ${balance.userId} vanished inside its transaction`);
      return publish(updated, change.reason, reference);
    },
  };
  return ledger;
}

/**
 * Applies one reference to one user's balance: lock, skip if the reference was applied, let
 * `decide` compute the change from the locked balance (null: nothing to do), post it.
 * Answers the new snapshot, or null when nothing changed.
 */
export async function changeBalance(
  trx: Kysely<BillingDatabase>,
  bus: Bus,
  userId: number,
  reference: string,
  decide: (balance: Balance) => BalanceChange | null,
): Promise<BalanceSnapshot | null> {
  const ledger = ledgerIn(trx, bus);
  const balance = (await ledger.lock([userId])).get(userId);
  if (!balance) throw new Error(`no balance for user ${userId}`);
  if (await ledger.applied(reference)) return null;
  const change = decide(balance);
  return change ? ledger.post(balance, reference, change) : null;
}
