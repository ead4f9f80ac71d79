import { statfs } from 'node:fs/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { AdminStats } from '@gpt/contracts';
import { sql } from 'kysely';
import {
  MetricsHarness,
  messageRecorded,
  moscow,
  newId,
  paymentSucceeded,
  userDeleted,
  userRegistered,
} from './support/harness';

let metrics: MetricsHarness;

beforeAll(async () => {
  metrics = await MetricsHarness.start({ METRICS_DISK_PATH: os.tmpdir() });
});
afterAll(() => metrics?.stop());

/** One sign-up, one payment and one message, all at the same instant. */
async function activityAt(instant: string, money: { cost: string; amount: string }) {
  await metrics.publish('user.registered', userRegistered({ created_at: instant }));
  await metrics.publish('payment.succeeded', paymentSucceeded({ succeeded_at: instant, amount: money.amount }));
  await metrics.publish('message.recorded', messageRecorded({ created_at: instant, total_cost: money.cost }));
}

function periodFigures(stats: Record<string, unknown>) {
  const pick = (prefix: string) => ({
    today: stats[`${prefix}Today`],
    week: stats[`${prefix}Week`],
    month: stats[`${prefix}Month`],
  });
  return {
    newUsers: pick('newUsers'),
    messages: pick('messages'),
    spent: pick('spent'),
    deposited: pick('deposited'),
  };
}

describe('GET /api/admin/stats', () => {
  test('before any event, then every business figure is zero and there is no last message', async () => {
    metrics.clock.now = new Date(moscow('2024-05-15 12:00'));
    const stats = await metrics.stats();
    expect(AdminStats.parse(stats)).toEqual(stats);
    expect(stats).toMatchObject({
      usersCount: 0,
      newUsersToday: 0,
      newUsersWeek: 0,
      newUsersMonth: 0,
      messagesToday: 0,
      messagesWeek: 0,
      messagesMonth: 0,
      spentToday: '0.000000',
      spentWeek: '0.000000',
      spentMonth: '0.000000',
      depositedToday: '0.00',
      depositedWeek: '0.00',
      depositedMonth: '0.00',
      lastMessage: null,
    });
  });

  test('without a token, then 401; with a user token, then 403 in Russian', async () => {
    const anonymous = await metrics.get('/api/admin/stats', {});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthorized', error: 'Требуется авторизация' });

    const user = await metrics.get('/api/admin/stats', { Authorization: `Bearer ${metrics.token('user', '7')}` });
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({ code: 'forbidden', error: 'Недостаточно прав' });
  });

  test('when facts fall at 23:59 and 00:01 Moscow time around midnight and the start of the ISO week, then each lands on its own Moscow day', async () => {
    await activityAt(moscow('2025-09-28 23:59'), { cost: '0.100000', amount: '1000.00' }); // Sunday, last week
    await activityAt(moscow('2025-09-29 00:01'), { cost: '0.020000', amount: '200.00' }); // Monday, this week
    await activityAt(moscow('2025-09-30 23:59'), { cost: '0.003000', amount: '30.00' }); // yesterday, September
    await activityAt(moscow('2025-10-01 00:01'), { cost: '0.000400', amount: '4.00' }); // today
    await activityAt(moscow('2025-10-01 11:59'), { cost: '0.000050', amount: '0.50' }); // today

    metrics.clock.now = new Date(moscow('2025-10-01 12:00')); // a Wednesday
    expect(periodFigures(await metrics.stats())).toEqual({
      newUsers: { today: 2, week: 4, month: 2 },
      messages: { today: 2, week: 4, month: 2 },
      spent: { today: '0.000450', week: '0.023450', month: '0.000450' },
      deposited: { today: '4.50', week: '234.50', month: '4.50' },
    });

    // A day earlier (Tuesday 30 September) the same projections answer for that day, week and month.
    metrics.clock.now = new Date(moscow('2025-09-30 23:59'));
    expect(periodFigures(await metrics.stats())).toEqual({
      newUsers: { today: 1, week: 2, month: 3 },
      messages: { today: 1, week: 2, month: 3 },
      spent: { today: '0.003000', week: '0.023000', month: '0.123000' },
      deposited: { today: '30.00', week: '230.00', month: '1230.00' },
    });
  });

  test('when facts fall at 23:59 on the last day of a month and 00:01 on the first (both the same UTC date), then the month splits there and the week does not', async () => {
    await activityAt(moscow('2025-10-31 23:59'), { cost: '1.500000', amount: '350.00' }); // 20:59 UTC
    await activityAt(moscow('2025-11-01 00:01'), { cost: '0.250000', amount: '1250.00' }); // 21:01 UTC, 31 October

    metrics.clock.now = new Date(moscow('2025-11-01 00:30')); // Saturday; ISO week 27 October – 2 November
    expect(periodFigures(await metrics.stats())).toEqual({
      newUsers: { today: 1, week: 2, month: 1 },
      messages: { today: 1, week: 2, month: 1 },
      spent: { today: '0.250000', week: '1.750000', month: '0.250000' },
      deposited: { today: '1250.00', week: '1600.00', month: '1250.00' },
    });
  });

  test('when a week spans New Year, then the week counts both years and the month only January', async () => {
    await activityAt(moscow('2025-12-29 10:00'), { cost: '0.000001', amount: '1.00' }); // Monday of ISO week 2026-W01
    await activityAt(moscow('2026-01-01 10:00'), { cost: '0.000002', amount: '2.00' });

    metrics.clock.now = new Date(moscow('2026-01-01 18:00'));
    expect(periodFigures(await metrics.stats())).toEqual({
      newUsers: { today: 1, week: 2, month: 1 },
      messages: { today: 1, week: 2, month: 1 },
      spent: { today: '0.000002', week: '0.000003', month: '0.000002' },
      deposited: { today: '2.00', week: '3.00', month: '2.00' },
    });
  });

  test('usersCount and new users count users who exist now: a deleted or merged-away user leaves both, each once, in any order', async () => {
    metrics.clock.now = new Date(moscow('2026-02-10 18:00'));
    const at = moscow('2026-02-10 12:00');
    const before = await metrics.stats();
    const [kept, deleted, merged, deletedFirst] = [newId(), newId(), newId(), newId()];

    for (const userId of [kept, deleted, merged]) {
      await metrics.publish('user.registered', userRegistered({ user_id: userId, created_at: at }));
    }
    expect((await metrics.stats()).usersCount).toBe((before.usersCount as number) + 3);

    await metrics.publish('user.deleted', userDeleted(deleted, moscow('2026-02-10 13:00')));
    await metrics.publish('user.deleted', userDeleted(deleted, moscow('2026-02-10 13:05'))); // the same fact again
    await metrics.publish('accounts.linked', {
      user_id: kept,
      merged_user_id: merged,
      telegram_id: newId(),
      linked_at: moscow('2026-02-10 14:00'),
    });
    await metrics.publish('accounts.linked', {
      user_id: kept,
      merged_user_id: null,
      telegram_id: newId(),
      linked_at: moscow('2026-02-10 14:30'),
    });
    // A removal that overtook its registration: the user never counts.
    await metrics.publish('user.deleted', userDeleted(deletedFirst, moscow('2026-02-10 15:00')));
    await metrics.publish('user.registered', userRegistered({ user_id: deletedFirst, created_at: at }));
    await metrics.publish('user.registered', userRegistered({ user_id: kept, created_at: at })); // a repeated sign-up

    const stats = await metrics.stats();
    expect(stats.usersCount).toBe((before.usersCount as number) + 1);
    // New users are the day's sign-ups that still exist: never more than the users there are.
    expect(stats.newUsersToday).toBe((before.newUsersToday as number) + 1);
    expect(stats.newUsersMonth).toBe((before.newUsersMonth as number) + 1);
    expect(stats.newUsersToday).toBeLessThanOrEqual(stats.usersCount as number);
    const { series } = (await (await metrics.get('/api/admin/stats/series?days=1')).json()) as {
      series: { newUsers: number }[];
    };
    expect(series.at(-1)?.newUsers).toBe(stats.newUsersToday);
  });

  test('when a card payment and a Stars payment are refunded, then deposits count the Stars at their rouble value and drop by each refund on its day', async () => {
    metrics.clock.now = new Date(moscow('2026-04-15 12:00')); // a Wednesday
    const card = paymentSucceeded({ succeeded_at: moscow('2026-04-13 10:00'), amount: '300.00' });
    const stars = paymentSucceeded({
      succeeded_at: moscow('2026-04-14 10:00'),
      amount: '150.00',
      provider: 'telegram_stars',
      star_amount: 100,
      yookassa_payment_id: null,
      telegram_payment_charge_id: 'charge-1',
    });
    await metrics.publish('payment.succeeded', card);
    await metrics.publish('payment.succeeded', stars);
    expect(periodFigures(await metrics.stats()).deposited).toEqual({ today: '0.00', week: '450.00', month: '450.00' });

    const refunded = (payment: typeof card, at: string) => ({
      ...payment,
      credits_amount: payment.credits_amount,
      refund_id: `refund-${payment.payment_id}`,
      refunded_at: moscow(at),
    });
    await metrics.publish('payment.refunded', refunded(card, '2026-04-15 09:00'));
    await metrics.publish('payment.refunded', refunded(stars, '2026-04-15 11:00'));
    expect(periodFigures(await metrics.stats()).deposited).toEqual({ today: '-450.00', week: '0.00', month: '0.00' });
  });

  test('lastMessage is the newest message by its time, whatever order messages arrive in', async () => {
    metrics.clock.now = new Date(moscow('2026-03-02 12:00'));
    const newest = messageRecorded({
      created_at: moscow('2026-03-02 11:00'),
      username: 'ivan_petrov',
      user_message: 'Сколько будет 2 + 2?',
      bot_response: '4',
      model: 'gpt-4o',
      total_cost: '0.001234567891',
    });
    await metrics.publish('message.recorded', newest);
    await metrics.publish('message.recorded', messageRecorded({ created_at: moscow('2026-03-02 10:59') }));

    expect((await metrics.stats()).lastMessage).toEqual({
      username: '@ivan_petrov',
      created_at: new Date(newest.created_at).toISOString(),
      user_message: 'Сколько будет 2 + 2?',
      bot_response: '4',
      model: 'gpt-4o',
      total_cost: '0.001234567891',
    });

    const error = messageRecorded({
      created_at: moscow('2026-03-02 11:30'),
      username: null,
      status: 'error',
      bot_response: null,
      error_message: 'timeout',
      total_cost: '0.000000',
    });
    await metrics.publish('message.recorded', error);
    expect((await metrics.stats()).lastMessage).toEqual({
      username: null,
      created_at: new Date(error.created_at).toISOString(),
      user_message: error.user_message,
      bot_response: null,
      model: error.model,
      total_cost: '0.000000',
    });
  });

  test('host figures describe the machine: memory, CPU over a recent window, load and the data volume; uptime is the service process’s', async () => {
    const stats = AdminStats.parse(await metrics.stats());
    const disk = await statfs(os.tmpdir());

    expect(stats.totalMemory).toBe(os.totalmem());
    expect(stats.memoryUsage).toBeGreaterThan(0);
    expect(stats.memoryUsage).toBeLessThanOrEqual(stats.totalMemory);
    expect(stats.cpuUsage).toBeGreaterThanOrEqual(0);
    expect(stats.cpuUsage).toBeLessThanOrEqual(100);
    expect(stats.loadAverage).toHaveLength(3);
    expect(Math.abs(stats.uptimeSec - process.uptime())).toBeLessThan(5);
    expect(stats.uptimeSec).toBeLessThan(os.uptime() - 5);
    expect(stats.diskTotal).toBe(disk.blocks * disk.bsize);
    expect(stats.diskUsed).toBeGreaterThan(0);
    expect(stats.diskUsed).toBeLessThanOrEqual(stats.diskTotal);
  });

  test('when the projections cannot be read, then 503 with the dashboard failure message', async () => {
    await sql`alter table daily_stats rename to daily_stats_away`.execute(metrics.db);
    try {
      const res = await metrics.get('/api/admin/stats');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 'Ошибка получения статистики', code: 'stats_unavailable' });
    } finally {
      await sql`alter table daily_stats_away rename to daily_stats`.execute(metrics.db);
    }
    expect((await metrics.get('/api/admin/stats')).status).toBe(200);
  });
});
