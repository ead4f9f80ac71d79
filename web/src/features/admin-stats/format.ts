import { pluralRu } from '@/lib/dates';
import { exactUsd, formatUsd as formatUsdCost, formatUsdSum } from '@/lib/money';

/** What every figure shows until it is loaded and after a failure (docs/product.md, Screens and Errors). */
export const DASH = '—';

type Num = number | string | null | undefined;

function num(value: Num): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

const LOCALE = 'ru-RU';
const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const roubles = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'RUB', minimumFractionDigits: 2 });

const withDash =
  (format: (n: number) => string) =>
  (value: Num): string => {
    const n = num(value);
    return n === null ? DASH : format(n);
  };

/** «1 234» */
export const formatCount = withDash((n) => integer.format(n));

/** A cost in dollars: «0,00045 $», «3,09 $» (more decimals only below a cent). */
export const formatUsd = withDash(formatUsdCost);

/** A sum of dollars: to the cent below 1 000, whole above («3,46 $», «12 515 $»). */
export const formatUsdTotal = withDash(formatUsdSum);

/** The exact dollars for a tooltip (a sum or a single cost); none while unknown. */
export const exactUsdTotal = (value: Num): string | undefined => {
  const n = num(value);
  return n === null ? undefined : exactUsd(n);
};

/** Roubles: «350,00 ₽». */
export const formatRub = withDash((n) => roubles.format(n));

/** «12,34 %» */
export const formatPercent = withDash((n) => `${decimal.format(n)} %`);

const BYTE_UNITS = ['Б', 'КБ', 'МБ', 'ГБ', 'ТБ'];

/** Bytes in binary units: «1,50 ГБ». */
export const formatBytes = withDash((n) => {
  let size = n;
  let unit = 0;
  while (size >= 1024 && unit < BYTE_UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${decimal.format(size)} ${BYTE_UNITS[unit]}`;
});

/** Share of a whole in percent (0 … 100), or null when either is unknown. */
export function percentOf(part: Num, whole: Num): number | null {
  const p = num(part);
  const w = num(whole);
  return p === null || w === null || w <= 0 ? null : Math.min(100, Math.max(0, (p / w) * 100));
}

const UPTIME_UNITS = [
  { seconds: 86_400, forms: ['день', 'дня', 'дней'] },
  { seconds: 3_600, forms: ['час', 'часа', 'часов'] },
  { seconds: 60, forms: ['минута', 'минуты', 'минут'] },
  { seconds: 1, forms: ['секунда', 'секунды', 'секунд'] },
] as const;

/** Uptime as days, hours, minutes and seconds: «2 дня 3 часа 4 минуты 5 секунд». */
export const formatUptime = withDash((n) => {
  let rest = Math.max(0, Math.floor(n));
  return UPTIME_UNITS.map(({ seconds, forms }) => {
    const count = Math.floor(rest / seconds);
    rest -= count * seconds;
    return `${count} ${pluralRu(count, forms)}`;
  }).join(' ');
});

/** The three load averages (1, 5 and 15 minutes): «0,52 · 0,61 · 0,70». */
export function formatLoad(values: readonly Num[] | null | undefined): string {
  if (!values || values.length === 0) return DASH;
  return values.map(withDash((n) => decimal.format(n))).join(' · ');
}
