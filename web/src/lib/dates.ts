/** Dates in the Russian locale (docs/product.md, What it sells and Limits). */

const LOCALE = 'ru-RU';
const DAY_MS = 24 * 60 * 60 * 1000;

export type DateInput = string | number | Date | null | undefined;

export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Russian plural form: pluralRu(n, ['день', 'дня', 'дней']) → 1 день, 2 дня, 5 дней, 21 день.
 */
export function pluralRu(count: number, forms: readonly [one: string, few: string, many: string]): string {
  const n = Math.abs(Math.trunc(count));
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}

const fullDate = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric' });
const shortDate = new Intl.DateTimeFormat(LOCALE, { day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeParts: Intl.DateTimeFormatOptions = {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};
const dateTime = new Intl.DateTimeFormat(LOCALE, dateTimeParts);
const moscowDateTime = new Intl.DateTimeFormat(LOCALE, { ...dateTimeParts, timeZone: 'Europe/Moscow' });

/** «5 марта 2024 г.»; '' for a missing or invalid date. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return date ? fullDate.format(date) : '';
}

/** «05.03.2024» */
export function formatShortDate(value: DateInput): string {
  const date = toDate(value);
  return date ? shortDate.format(date) : '';
}

/** «05.03.2024, 14:30» */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? dateTime.format(date) : '';
}

/** «05.03.2024, 14:30 МСК»: the moment in Moscow time, whatever the browser's time zone. */
export function formatMoscowDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? `${moscowDateTime.format(date)} МСК` : '';
}

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/**
 * Article dates (docs/product.md, Limits): today «Сегодня»; 1 day «Вчера»; under 7 days «N дней назад»;
 * under 30 days «N недель назад»; otherwise the full date. Counted in calendar days.
 */
export function formatRelativeDate(value: DateInput, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  const days = Math.round((startOfDay(now) - startOfDay(date)) / DAY_MS);
  if (days < 0) return formatDate(date);
  if (days === 0) return 'Сегодня';
  if (days === 1) return 'Вчера';
  if (days < 7) return `${days} ${pluralRu(days, ['день', 'дня', 'дней'])} назад`;
  if (days < 30) {
    const weeks = Math.floor(days / 7);
    return weeks === 1 ? 'Неделю назад' : `${weeks} ${pluralRu(weeks, ['неделю', 'недели', 'недель'])} назад`;
  }
  return formatDate(date);
}
