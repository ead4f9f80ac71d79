/** Money and credits as the site shows them (spec §9: credits rounded, roubles as RUB, ru-RU). */
const roubles = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', minimumFractionDigits: 2 });
const credits = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
// Message costs are fractions of a cent: up to 6 decimals, so they do not round to zero.
const dollars = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** Roubles from an exact decimal string ("350.00" → "350,00 ₽"); display only, never arithmetic. */
export const formatRoubles = (value: string) => roubles.format(Number(value));

/** Credits, rounded, with thousands separated ("70 000"). */
export const formatCredits = (value: number) => credits.format(Math.round(value));

/** Telegram Stars: «200 ⭐». */
export const formatStars = (value: number) => `${value.toLocaleString('ru-RU')} ⭐`;

/** Dollars from an exact decimal string ("0.008755000000" → "0,008755 $"); display only, never arithmetic. */
export const formatUsd = (value: string) => dollars.format(Number(value));

const cents = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const wholeDollars = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const exactDollars = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 12,
});

/**
 * A sum of dollars as a person reads it: to the cent below 1 000, whole dollars above
 * ("12515.19271" → "12 515 $", "3.456" → "3,46 $"); the exact sum goes into a tooltip (`exactUsd`).
 */
export const formatUsdSum = (value: string | number) => {
  const n = Number(value);
  return Math.abs(n) < 1000 ? cents.format(n) : wholeDollars.format(n);
};

/** Every stored decimal of a dollar sum ("12515.19271" → "12 515,19271 $"), for tooltips. */
export const exactUsd = (value: string | number) => exactDollars.format(Number(value));
