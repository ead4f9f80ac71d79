import type { Balance } from '../data/balances.repository';
import type { Tariff } from '../data/tariffs.repository';
import type { BalanceChange } from './ledger';

/** The same day next month, clamped to the month's last day (31 January → 28/29 February), in UTC. */
export const addOneMonth = (from: Date): Date => addMonths(from, 1);

/** The same day `months` later (or earlier, when negative), clamped to that month's last day, in UTC. */
function addMonths(from: Date, months: number): Date {
  const next = new Date(from);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** `days` whole days later. */
export const addDays = (days: number) => (from: Date) => new Date(from.getTime() + days * 86_400_000);

/**
 * A period of `tariff` (a paid month, or the days a promo code gives): given again before the end
 * of the same tariff it extends from the current end date, otherwise it runs from now; the
 * tariff's included credits are granted.
 */
export function purchasedPeriod(
  balance: Balance,
  tariff: Pick<Tariff, 'id'>,
  includedCredits: number,
  now: Date,
  end: (start: Date) => Date = addOneMonth,
) {
  const renewing = balance.tariff.id === tariff.id && balance.tariffEndDate !== null && balance.tariffEndDate > now;
  const start = renewing ? (balance.tariffEndDate as Date) : now;
  return {
    tariff: { id: tariff.id, endDate: end(start) },
    postings: [{ bucket: 'included' as const, amount: includedCredits }],
  } satisfies Pick<BalanceChange, 'tariff' | 'postings'>;
}

/**
 * A tariff set by the admin: from now for one month (the default tariff has no end), with the
 * included credits of the new tariff in place of what was left.
 */
export function assignedPeriod(balance: Balance, tariff: Tariff, isDefault: boolean, now: Date) {
  return {
    tariff: { id: tariff.id, endDate: isDefault ? null : addOneMonth(now) },
    postings: [{ bucket: 'included' as const, amount: tariff.included_credits - balance.includedCredits }],
  } satisfies Pick<BalanceChange, 'tariff' | 'postings'>;
}

/** Back to the default tariff when the paid period has ended: its included credits are gone. */
export function expiredPeriod(balance: Balance, defaultTariffId: number) {
  return {
    tariff: { id: defaultTariffId, endDate: null },
    postings: [{ bucket: 'included' as const, amount: -balance.includedCredits }],
  } satisfies Pick<BalanceChange, 'tariff' | 'postings'>;
}

/**
 * A refunded tariff purchase: its included credits go, and its month comes off the period; when
 * nothing of the period is left (or it is no longer this tariff's) the balance is back on the default
 * tariff. A balance on another tariff by now keeps it.
 */
export function refundedPeriod(
  balance: Balance,
  tariffId: number,
  includedCredits: number,
  defaultTariffId: number,
  now: Date,
): Pick<BalanceChange, 'tariff' | 'postings'> {
  const postings = [{ bucket: 'included' as const, amount: -includedCredits }];
  if (balance.tariff.id !== tariffId) return { postings };
  const end = balance.tariffEndDate ? addMonths(balance.tariffEndDate, -1) : null;
  return {
    tariff: end && end > now ? { id: tariffId, endDate: end } : { id: defaultTariffId, endDate: null },
    postings,
  };
}
