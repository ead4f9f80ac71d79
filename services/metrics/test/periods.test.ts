import { describe, expect, test } from '@jest/globals';
import { lastDays, moscowDay, periodsAt } from '../src/domain/periods';

describe('Moscow calendar days', () => {
  test.each([
    ['2025-09-30T20:59:59.999Z', '2025-09-30'], // 23:59:59.999 in Moscow
    ['2025-09-30T21:00:00.000Z', '2025-10-01'], // midnight in Moscow, still 30 September in UTC
    ['2025-12-31T21:00:00Z', '2026-01-01'],
    ['2025-10-01T00:01:00+03:00', '2025-10-01'],
    // Summer 2010: Moscow was UTC+4, so 20:30 UTC was already the next day (a fixed +3 says 23:30).
    ['2010-07-01T20:30:00Z', '2010-07-02'],
    // Winter 2010: UTC+3.
    ['2010-01-15T20:30:00Z', '2010-01-15'],
  ])('%s falls on %s', (instant, day) => {
    expect(moscowDay(instant)).toBe(day);
  });

  test('an invalid instant is refused', () => {
    expect(() => moscowDay('not a date')).toThrow(RangeError);
  });
});

describe('periods', () => {
  test('on a Wednesday: today, the week from Monday, the month from the 1st', () => {
    expect(periodsAt(new Date('2025-10-01T09:00:00Z'))).toEqual({
      today: '2025-10-01',
      week: { from: '2025-09-29', to: '2025-10-01' },
      month: { from: '2025-10-01', to: '2025-10-01' },
    });
  });

  test('on a Sunday the ISO week started six days before; on a Monday it starts that day', () => {
    expect(periodsAt(new Date('2025-10-05T20:00:00Z')).week).toEqual({ from: '2025-09-29', to: '2025-10-05' });
    expect(periodsAt(new Date('2025-10-05T21:00:00Z')).week).toEqual({ from: '2025-10-06', to: '2025-10-06' });
  });

  test('across New Year the ISO week keeps December while the month starts on 1 January', () => {
    expect(periodsAt(new Date('2026-01-01T12:00:00Z'))).toEqual({
      today: '2026-01-01',
      week: { from: '2025-12-29', to: '2026-01-01' },
      month: { from: '2026-01-01', to: '2026-01-01' },
    });
  });

  test('on 29 February of a leap year', () => {
    expect(periodsAt(new Date('2024-02-29T12:00:00Z'))).toEqual({
      today: '2024-02-29',
      week: { from: '2024-02-26', to: '2024-02-29' },
      month: { from: '2024-02-01', to: '2024-02-29' },
    });
  });

  test('the last N days end with the Moscow today', () => {
    expect(lastDays(new Date('2025-02-28T21:30:00Z'), 3)).toEqual(['2025-02-27', '2025-02-28', '2025-03-01']);
  });
});
