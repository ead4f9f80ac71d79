/**
 * Calendar arithmetic of the dashboard. Every figure belongs to the calendar day on which its
 * fact happened in Europe/Moscow (a real time-zone computation through Intl, so history before
 * 2014, when Moscow still changed its offset, is right too). Periods: today = that day; week =
 * the ISO week containing it (from Monday); month = its calendar month (from the 1st).
 */

export const TIME_ZONE = 'Europe/Moscow';

/** A calendar date, 'YYYY-MM-DD'. */
export type Day = string;

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The Moscow calendar day of an instant. */
export function moscowDay(instant: Date | string): Day {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not an instant: ${String(instant)}`);
  // en-CA formats as YYYY-MM-DD.
  return dayFormat.format(date);
}

/** Plain date arithmetic on the calendar (no time zone involved: a Day has none). */
function toUtcDate(day: Day): Date {
  return new Date(`${day}T00:00:00Z`);
}

function fromUtcDate(date: Date): Day {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: Day, days: number): Day {
  const date = toUtcDate(day);
  date.setUTCDate(date.getUTCDate() + days);
  return fromUtcDate(date);
}

export interface DayRange {
  from: Day;
  to: Day;
}

export interface Periods {
  today: Day;
  week: DayRange;
  month: DayRange;
}

/**
 * Today, this ISO week and this month in Moscow at instant `now`, each up to today inclusive:
 * week = Monday … today, month = the 1st … today. (Nothing is dated after now, so this is the
 * whole calendar week and month; it also makes a past `now` answer "as of then".)
 */
export function periodsAt(now: Date): Periods {
  const today = moscowDay(now);
  // getUTCDay of the plain date: 0 = Sunday; ISO weeks start on Monday.
  const sinceMonday = (toUtcDate(today).getUTCDay() + 6) % 7;
  return {
    today,
    week: { from: addDays(today, -sinceMonday), to: today },
    month: { from: `${today.slice(0, 7)}-01`, to: today },
  };
}

/** The `days` Moscow days ending today, oldest first. */
export function lastDays(now: Date, days: number): Day[] {
  const today = moscowDay(now);
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
}
