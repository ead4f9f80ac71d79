import { fromMinorUnits, toMinorUnits } from '@gpt/contracts';

const USD_SCALE = 12;

/** Dollars as the contract carries them: kept with 12 decimals, shown with at least 6 (trailing zeros beyond dropped). */
export function usd(value: string): string {
  const exact = fromMinorUnits(toMinorUnits(value, USD_SCALE), USD_SCALE);
  return exact.replace(/(\.\d{6}\d*?)0+$/, '$1');
}

/** Roubles with exactly 2 decimals. */
export function rub(value: string): string {
  return fromMinorUnits(toMinorUnits(value, 2), 2);
}
