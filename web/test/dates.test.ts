import { describe, expect, test } from '@jest/globals';

import { formatDate, formatMoscowDateTime, formatRelativeDate, pluralRu } from '../src/lib/dates';

const now = new Date(2025, 5, 26, 15, 0, 0);
const daysAgo = (days: number, hour = 12) => new Date(2025, 5, 26 - days, hour, 0, 0);

describe('pluralRu', () => {
  test('picks the Russian form for 1, 2–4, 5–20, 21, 111', () => {
    const forms = ['день', 'дня', 'дней'] as const;
    expect([1, 2, 4, 5, 11, 12, 14, 20, 21, 22, 25, 101, 111, 112].map((n) => `${n} ${pluralRu(n, forms)}`)).toEqual([
      '1 день',
      '2 дня',
      '4 дня',
      '5 дней',
      '11 дней',
      '12 дней',
      '14 дней',
      '20 дней',
      '21 день',
      '22 дня',
      '25 дней',
      '101 день',
      '111 дней',
      '112 дней',
    ]);
  });
});

describe('formatRelativeDate', () => {
  test('when the date is one calendar day back, then «Вчера» (even under 24 hours)', () => {
    expect(formatRelativeDate(daysAgo(1, 23), now)).toBe('Вчера');
  });

  test('when under 7 days, then «N дней назад» with the right plural', () => {
    expect(formatRelativeDate(daysAgo(2), now)).toBe('2 дня назад');
    expect(formatRelativeDate(daysAgo(5), now)).toBe('5 дней назад');
    expect(formatRelativeDate(daysAgo(6), now)).toBe('6 дней назад');
  });

  test('when under 30 days, then weeks ago', () => {
    expect(formatRelativeDate(daysAgo(7), now)).toBe('Неделю назад');
    expect(formatRelativeDate(daysAgo(14), now)).toBe('2 недели назад');
    expect(formatRelativeDate(daysAgo(29), now)).toBe('4 недели назад');
  });

  test('when 30 days or more, then the full Russian date', () => {
    expect(formatRelativeDate(daysAgo(30), now)).toBe(formatDate(daysAgo(30)));
    expect(formatDate(new Date(2024, 2, 5))).toMatch(/^5 марта 2024/);
  });

  test('when today, then «Сегодня»; when missing or invalid, then empty', () => {
    expect(formatRelativeDate(daysAgo(0, 1), now)).toBe('Сегодня');
    expect(formatRelativeDate(null, now)).toBe('');
    expect(formatRelativeDate('not a date', now)).toBe('');
  });
});

describe('formatMoscowDateTime', () => {
  test('shows the moment in Moscow time (UTC+3) whatever the zone it was given in, marked МСК', () => {
    expect(formatMoscowDateTime('2026-11-26T22:30:00Z')).toBe('27.11.2026, 01:30 МСК');
    expect(formatMoscowDateTime('2026-11-26T23:30:00+01:00')).toBe('27.11.2026, 01:30 МСК');
    expect(formatMoscowDateTime(null)).toBe('');
  });
});
