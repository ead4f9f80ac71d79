import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { StatsSeriesResponse } from '@gpt/contracts';
import { MetricsHarness, messageRecorded, moscow, paymentSucceeded, userRegistered } from './support/harness';

let metrics: MetricsHarness;

beforeAll(async () => {
  metrics = await MetricsHarness.start();
  await metrics.publish(
    'message.recorded',
    messageRecorded({ created_at: moscow('2025-10-31 23:59'), total_cost: '0.500000' }),
  );
  await metrics.publish(
    'message.recorded',
    messageRecorded({ created_at: moscow('2025-11-01 00:01'), total_cost: '0.250000' }),
  );
  await metrics.publish(
    'message.recorded',
    messageRecorded({ created_at: moscow('2025-11-01 09:00'), total_cost: '0.000001' }),
  );
  await metrics.publish('user.registered', userRegistered({ created_at: moscow('2025-10-31 23:59') }));
  await metrics.publish(
    'payment.succeeded',
    paymentSucceeded({ succeeded_at: moscow('2025-11-01 00:01'), amount: '350.00' }),
  );
  await metrics.publish(
    'payment.succeeded',
    paymentSucceeded({ succeeded_at: moscow('2025-10-03 00:00'), amount: '1.10' }),
  );
  metrics.clock.now = new Date(moscow('2025-11-01 12:00'));
});
afterAll(() => metrics?.stop());

async function series(query = '') {
  const res = await metrics.get(`/api/admin/stats/series${query}`);
  expect(res.status).toBe(200);
  return StatsSeriesResponse.parse(await res.json());
}

describe('GET /api/admin/stats/series', () => {
  test('by default, then the last 30 Moscow days, oldest first, with quiet days as zeros', async () => {
    const body = await series();
    expect(body.days).toBe(30);
    expect(body.series).toHaveLength(30);
    expect(body.series[0]).toEqual({
      date: '2025-10-03',
      newUsers: 0,
      messages: 0,
      spent: '0.000000',
      deposited: '1.10',
    });
    expect(body.series.at(-2)).toEqual({
      date: '2025-10-31',
      newUsers: 1,
      messages: 1,
      spent: '0.500000',
      deposited: '0.00',
    });
    expect(body.series.at(-1)).toEqual({
      date: '2025-11-01',
      newUsers: 0,
      messages: 2,
      spent: '0.250001',
      deposited: '350.00',
    });
    expect(body.series.slice(1, -2).every((point) => point.messages === 0 && point.deposited === '0.00')).toBe(true);
  });

  test('with days=2, then yesterday and today split at Moscow midnight', async () => {
    const body = await series('?days=2');
    expect(body.series.map((point) => [point.date, point.messages])).toEqual([
      ['2025-10-31', 1],
      ['2025-11-01', 2],
    ]);
  });

  test('with days=1 and days=366, then exactly that many points ending today', async () => {
    expect((await series('?days=1')).series.map((point) => point.date)).toEqual(['2025-11-01']);
    const year = await series('?days=366');
    expect(year.series).toHaveLength(366);
    expect(year.series[0]?.date).toBe('2024-11-01');
  });

  test.each(['0', '367', 'abc', '1.5'])('with days=%s, then 400 with the Russian message', async (days) => {
    const res = await metrics.get(`/api/admin/stats/series?days=${days}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'validation_error',
      error: 'Количество дней должно быть целым числом от 1 до 366',
    });
  });

  test('without an admin token, then 401 or 403', async () => {
    expect((await metrics.get('/api/admin/stats/series', {})).status).toBe(401);
    const user = await metrics.get('/api/admin/stats/series', { Authorization: `Bearer ${metrics.token('user')}` });
    expect(user.status).toBe(403);
  });
});
