import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createLogger } from '@gpt/kit';
import { TEST_SECRETS } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { loadMetricsConfig } from '../src/config';
import { rebuildCommand } from '../src/rebuild-command';
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
  metrics = await MetricsHarness.start();
  metrics.clock.now = new Date(moscow('2025-06-18 12:00'));
});
afterAll(() => metrics?.stop());

const silent = createLogger({ name: 'rebuild-test', level: 'silent' });

/** `npm run metrics:rebuild` against the service's database, configured as the command reads its env. */
function runRebuild() {
  return rebuildCommand(
    loadMetricsConfig({
      ...TEST_SECRETS,
      METRICS_DATABASE_URL: metrics.service.deps.config.SERVICE_DATABASE_URL,
    }),
    silent,
  );
}

/** Host figures move on their own; the rebuild concerns the rest. */
const HOST_FIELDS = ['memoryUsage', 'totalMemory', 'cpuUsage', 'loadAverage', 'uptimeSec', 'diskUsed', 'diskTotal'];

async function dashboard() {
  const stats = await metrics.stats();
  const series: unknown = await (await metrics.get('/api/admin/stats/series?days=30')).json();
  const business = Object.fromEntries(Object.entries(stats).filter(([key]) => !HOST_FIELDS.includes(key)));
  return { business, series };
}

describe('rebuilding the projections (npm run metrics:rebuild)', () => {
  test('when the projections are lost or wrong, then the rebuild recomputes exactly what consumption had built', async () => {
    const removed = newId();
    const mergedAway = newId();
    await metrics.publish('user.registered', userRegistered({ created_at: moscow('2025-06-01 00:01') }));
    await metrics.publish('user.deleted', userDeleted(removed, moscow('2025-06-16 10:00'))); // before its registration
    await metrics.publish(
      'user.registered',
      userRegistered({ user_id: removed, created_at: moscow('2025-06-15 23:59') }),
    );
    await metrics.publish(
      'user.registered',
      userRegistered({ user_id: mergedAway, created_at: moscow('2025-06-16 00:01') }),
    );
    await metrics.publish('accounts.linked', {
      user_id: newId(),
      merged_user_id: mergedAway,
      telegram_id: newId(),
      linked_at: moscow('2025-06-18 09:00'),
    });
    await metrics.publish(
      'payment.succeeded',
      paymentSucceeded({ succeeded_at: moscow('2025-05-31 23:59'), amount: '350.00' }),
    );
    await metrics.publish(
      'payment.succeeded',
      paymentSucceeded({ succeeded_at: moscow('2025-06-18 00:00'), amount: '99.99' }),
    );
    await metrics.publish(
      'message.recorded',
      messageRecorded({ created_at: moscow('2025-06-18 11:00'), username: 'newest' }),
    );
    await metrics.publish('message.recorded', messageRecorded({ created_at: moscow('2025-06-17 23:59') }));
    const built = await dashboard();
    expect(built.business).toMatchObject({
      usersCount: 1,
      newUsersToday: 0,
      newUsersWeek: 0, // the week starts on Monday 16 June; its one sign-up was merged away
      newUsersMonth: 1, // of three sign-ups, one was deleted and one merged away
      depositedToday: '99.99',
      depositedMonth: '99.99',
      messagesWeek: 2,
      lastMessage: expect.objectContaining({ username: '@newest' }),
    });

    await sql`update daily_stats set messages = messages + 100, spent_usd = 42`.execute(metrics.db);
    await metrics.db.deleteFrom('last_message').execute();
    await metrics.db.deleteFrom('user_presence').execute();
    expect((await dashboard()).business).not.toEqual(built.business);

    await expect(runRebuild()).resolves.toEqual({ events: 9 });
    expect(await dashboard()).toEqual(built);
  });

  test('when events arrive while it runs, then none is lost', async () => {
    const before = (await metrics.stats()).messagesToday as number;
    const during = Array.from({ length: 10 }, (_, i) =>
      metrics.publish('message.recorded', messageRecorded({ created_at: moscow(`2025-06-18 10:${10 + i}`) })),
    );
    await Promise.all([runRebuild(), ...during]);
    expect((await metrics.stats()).messagesToday).toBe(before + 10);
    await runRebuild();
    expect((await metrics.stats()).messagesToday).toBe(before + 10);
  });
});
