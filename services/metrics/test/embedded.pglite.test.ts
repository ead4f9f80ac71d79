import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { EventType } from '@gpt/contracts';
import {
  createInProcessBroker,
  createLogger,
  signAccessToken,
  startService,
  type InProcessBroker,
  type RunningService,
} from '@gpt/kit';
import { createEvent, TEST_SECRETS, pgliteDataDir } from '@gpt/kit/testing';
import { loadMetricsConfig, type MetricsConfig } from '../src/config';
import type { MetricsDatabase } from '../src/data/schema';
import { rebuildCommand } from '../src/rebuild-command';
import { createMetricsService } from '../src/service';
import { messageRecorded, moscow, paymentSucceeded, userRegistered, type EventInput } from './support/harness';

// The embedded default of `npm start` with no URLs: PGlite files under DATA_DIR and the in-process bus.
let dataDir: string;
let config: MetricsConfig;
const now = new Date(moscow('2025-11-01 12:00'));

beforeAll(async () => {
  dataDir = await pgliteDataDir('metrics-embedded');
  config = loadMetricsConfig({ ...TEST_SECRETS, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function start(broker: InProcessBroker) {
  return startService(createMetricsService({ clock: () => now }), config, { broker });
}

async function deliver<T extends EventType>(
  service: RunningService<MetricsConfig, MetricsDatabase>,
  broker: InProcessBroker,
  type: T,
  data: EventInput<T>,
) {
  const event = createEvent(type, 'chat-history', data);
  broker.publish(type, JSON.stringify(event));
  await service.deps.bus.waitFor('acked', (acked) => acked.id === event.id);
}

async function stats(service: RunningService<MetricsConfig, MetricsDatabase>) {
  const token = signAccessToken({ sub: '1', role: 'admin', ver: 0 }, config.JWT_SECRET);
  const res = await fetch(`${service.url}/api/admin/stats`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe('metrics on the embedded default (PGlite, in-process bus)', () => {
  test('the projections and the rebuild command work on PGlite files, and survive a restart', async () => {
    const broker = createInProcessBroker();
    const service = await start(broker);
    let before: Record<string, unknown>;
    try {
      await deliver(service, broker, 'user.registered', userRegistered({ created_at: moscow('2025-10-31 23:59') }));
      await deliver(
        service,
        broker,
        'payment.succeeded',
        paymentSucceeded({ succeeded_at: moscow('2025-11-01 00:01') }),
      );
      await deliver(service, broker, 'message.recorded', messageRecorded({ created_at: moscow('2025-11-01 00:01') }));
      before = await stats(service);
      expect(before).toMatchObject({
        usersCount: 1,
        newUsersToday: 0,
        newUsersWeek: 1,
        newUsersMonth: 0,
        depositedToday: '100.00',
        messagesToday: 1,
        spentToday: '0.000135',
      });
    } finally {
      await service.close();
    }

    // Embedded mode: the rebuild runs while the product is stopped (PGlite files have one owner).
    await expect(rebuildCommand(config, createLogger({ name: 'rebuild', level: 'silent' }))).resolves.toEqual({
      events: 3,
    });

    const restarted = await start(createInProcessBroker());
    try {
      expect(await stats(restarted)).toMatchObject({
        usersCount: before.usersCount,
        newUsersWeek: before.newUsersWeek,
        depositedToday: before.depositedToday,
        messagesToday: before.messagesToday,
        spentToday: before.spentToday,
        lastMessage: before.lastMessage,
      });
    } finally {
      await restarted.close();
    }
  }, 180_000);
});
