import type { Balance, ResumedTariff } from '../data/balances.repository';
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

/** The end of the tariff set aside, were it to come back when the running one ends. */
const resumedEnd = (balance: Balance, resume: ResumedTariff): Date =>
  new Date((balance.tariffEndDate as Date).getTime() + resume.seconds * 1000);

/** The tariff set aside, running from the current end until `end`: null when nothing is left of it. */
function resumeUntil(
  balance: Balance,
  resume: ResumedTariff,
  end: Date,
  includedCredits: number,
): ResumedTariff | null {
  const seconds = Math.round((end.getTime() - (balance.tariffEndDate as Date).getTime()) / 1000);
  return seconds > 0 ? { ...resume, seconds, includedCredits: Math.max(0, includedCredits) } : null;
}

/**
 * A period of `tariff` (a paid month, or the days a promo code gives): given again before the end
 * of the same tariff it extends from the current end date; bought while a promo code's tariff runs
 * and it is the tariff set aside, it lengthens that one; otherwise it runs from now. The tariff's
 * included credits are granted.
 */
export function purchasedPeriod(
  balance: Balance,
  tariff: Pick<Tariff, 'id'>,
  includedCredits: number,
  now: Date,
  end: (start: Date) => Date = addOneMonth,
): Pick<BalanceChange, 'tariff' | 'postings' | 'resume'> {
  const postings = [{ bucket: 'included' as const, amount: includedCredits }];
  const running = balance.tariffEndDate !== null && balance.tariffEndDate > now;
  const resume = running ? balance.resume : null;
  if (resume && resume.tariffId === tariff.id && balance.tariff.id !== tariff.id) {
    const lengthened = end(resumedEnd(balance, resume));
    return { postings, resume: resumeUntil(balance, resume, lengthened, resume.includedCredits + includedCredits) };
  }
  const renewing = running && balance.tariff.id === tariff.id;
  const start = renewing ? (balance.tariffEndDate as Date) : now;
  return { tariff: { id: tariff.id, endDate: end(start) }, postings };
}

/**
 * A promo code's tariff for `days` above the paid tariff that runs now: it starts now, and the
 * paid one is set aside with the time and the included credits it had left, to come back when the
 * promo tariff ends (see docs/money.md).
 */
export function promotedPeriod(balance: Balance, tariff: Tariff, now: Date, days: number) {
  const paidEnd = balance.tariffEndDate as Date;
  return {
    tariff: { id: tariff.id, endDate: addDays(days)(now) },
    postings: [{ bucket: 'included' as const, amount: tariff.included_credits }],
    resume: balance.resume ?? {
      tariffId: balance.tariff.id,
      seconds: Math.ceil((paidEnd.getTime() - now.getTime()) / 1000),
      includedCredits: balance.includedCredits,
    },
  } satisfies Pick<BalanceChange, 'tariff' | 'postings' | 'resume'>;
}

/**
 * A tariff set by the admin: from now for one month (the default tariff has no end), with the
 * included credits of the new tariff in place of what was left.
 */
export function assignedPeriod(balance: Balance, tariff: Tariff, isDefault: boolean, now: Date) {
  return {
    tariff: { id: tariff.id, endDate: isDefault ? null : addOneMonth(now) },
    postings: [{ bucket: 'included' as const, amount: tariff.included_credits - balance.includedCredits }],
    resume: null,
  } satisfies Pick<BalanceChange, 'tariff' | 'postings' | 'resume'>;
}

/**
 * The paid period has ended: a tariff set aside for a promo code's tariff comes back for the time
 * it had left, with no more included credits than it had then; otherwise back to the default
 * tariff, and the included credits are gone.
 */
export function expiredPeriod(
  balance: Balance,
  defaultTariffId: number,
): Pick<BalanceChange, 'tariff' | 'postings' | 'resume'> {
  const resume = balance.resume;
  if (resume) {
    const kept = Math.min(balance.includedCredits, resume.includedCredits);
    return {
      tariff: { id: resume.tariffId, endDate: resumedEnd(balance, resume) },
      postings: [{ bucket: 'included' as const, amount: kept - balance.includedCredits }],
      resume: null,
    };
  }
  return {
    tariff: { id: defaultTariffId, endDate: null },
    postings: [{ bucket: 'included' as const, amount: -balance.includedCredits }],
  };
}

/**
 * A refunded tariff purchase: its included credits go, and its month comes off the period (of the
 * tariff set aside, when a promo code's tariff runs above it); when nothing of the period is left
 * (or it is no longer this tariff's) the balance is back on the default tariff. A balance on
 * another tariff by now keeps it.
 */
export function refundedPeriod(
  balance: Balance,
  tariffId: number,
  includedCredits: number,
  defaultTariffId: number,
  now: Date,
): Pick<BalanceChange, 'tariff' | 'postings' | 'resume'> {
  const postings = [{ bucket: 'included' as const, amount: -includedCredits }];
  const resume = balance.resume;
  if (resume && resume.tariffId === tariffId && balance.tariff.id !== tariffId) {
    const shortened = addMonths(resumedEnd(balance, resume), -1);
    return { postings, resume: resumeUntil(balance, resume, shortened, resume.includedCredits - includedCredits) };
  }
  if (balance.tariff.id !== tariffId) return { postings };
  const end = balance.tariffEndDate ? addMonths(balance.tariffEndDate, -1) : null;
  return {
    tariff: end && end > now ? { id: tariffId, endDate: end } : { id: defaultTariffId, endDate: null },
    postings,
  };
}
