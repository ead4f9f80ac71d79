import { describe, expect, test } from '@jest/globals';

import {
  DASH,
  exactUsdTotal,
  formatBytes,
  formatCount,
  formatLoad,
  formatPercent,
  formatRub,
  formatUptime,
  formatUsd,
  formatUsdTotal,
  percentOf,
} from '../src/features/admin-stats/format';

/** Intl puts no-break spaces between groups and before the unit; compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('admin dashboard formatting', () => {
  test.each([
    [0, '0 дней 0 часов 0 минут 0 секунд'],
    [59, '0 дней 0 часов 0 минут 59 секунд'],
    [61, '0 дней 0 часов 1 минута 1 секунда'],
    [3 * 86_400 + 2 * 3_600 + 22 * 60 + 5.9, '3 дня 2 часа 22 минуты 5 секунд'],
    [21 * 86_400 + 21 * 3_600 + 11 * 60 + 14, '21 день 21 час 11 минут 14 секунд'],
  ])('uptime %s s is shown as %s', (seconds, text) => {
    expect(formatUptime(seconds)).toBe(text);
  });

  test('money carries its currency: dollars keep fractions of a cent, roubles two decimals', () => {
    expect(plain(formatUsd('0.001234'))).toBe('0,001234 $');
    expect(plain(formatUsd('0.000000'))).toBe('0,00 $');
    expect(plain(formatUsd('1234.5'))).toBe('1 234,50 $');
    expect(plain(formatRub('1600.00'))).toBe('1 600,00 ₽');
    expect(plain(formatRub('0.50'))).toBe('0,50 ₽');
  });

  test('a sum of dollars: to the cent below 1 000, whole above; the exact sum for the tooltip', () => {
    expect(plain(formatUsdTotal('0.011234'))).toBe('0,01 $');
    expect(plain(formatUsdTotal('999.994'))).toBe('999,99 $');
    expect(plain(formatUsdTotal('12515.19271'))).toBe('12 515 $');
    expect(formatUsdTotal(undefined)).toBe('—');
    expect(plain(exactUsdTotal('12515.19271') ?? '')).toBe('12 515,19271 $');
    expect(plain(exactUsdTotal('0.5') ?? '')).toBe('0,50 $');
    expect(exactUsdTotal(null)).toBeUndefined();
  });

  test('counts, percents, bytes and load averages in the Russian locale', () => {
    expect(plain(formatCount(12345))).toBe('12 345');
    expect(plain(formatPercent(12.345))).toBe('12,35 %');
    expect(plain(formatBytes(512))).toBe('512,00 Б');
    expect(plain(formatBytes(1536 * 1024 * 1024))).toBe('1,50 ГБ');
    expect(plain(formatLoad([0.5, 1.25, 2]))).toBe('0,50 · 1,25 · 2,00');
    expect(percentOf(1, 4)).toBe(25);
    expect(percentOf(1, 0)).toBeNull();
  });

  test('a missing value is a dash', () => {
    for (const format of [formatCount, formatUsd, formatRub, formatPercent, formatBytes, formatUptime]) {
      expect(format(undefined)).toBe(DASH);
      expect(format(null)).toBe(DASH);
      expect(format('')).toBe(DASH);
    }
    expect(formatLoad(undefined)).toBe(DASH);
    expect(percentOf(undefined, 10)).toBeNull();
  });
});
