/** Money and credits as the site shows them (docs/product.md, Limits: credits rounded, roubles as RUB, ru-RU). */
const credits = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
// Costs below a cent: up to 6 decimals, so they do not round to zero.
const dollars = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** Roubles from an exact decimal string ("350.00" → "350,00 ₽"), the same as every service writes them. */
export { formatRoubles } from '@gpt/contracts';

/** Credits, rounded, with thousands separated ("70 000"). */
export const formatCredits = (value: number) => credits.format(Math.round(value));

const cents = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/**
 * A cost or price in dollars from an exact decimal string: to the cent from one cent up ("3.086418" →
 * "3,09 $"), more decimals only below a cent ("0.008755000000" → "0,008755 $"); the exact value goes
 * into a tooltip (`exactUsd`). Display only, never arithmetic.
 */
export const formatUsd = (value: string | number) => {
  const n = Number(value);
  return n !== 0 && Math.abs(n) < 0.01 ? dollars.format(n) : cents.format(n);
};
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
