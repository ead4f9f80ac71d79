import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, test } from '@jest/globals';
import express from 'express';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { serviceConfigSchema, type ServiceConfig, type ServiceDefinition, type ServiceDeps } from '../src/service';
import { createTestDatabase, dropTestDatabase, startTestService, testInfra } from '../src/testing';

type WiredDeps = ServiceDeps<ServiceConfig, unknown> & { made: { starts: number } };

/** A service whose every hook writes down the deps it was given. */
function recordingService(seen: Map<string, WiredDeps>, wires: { count: number }) {
  const definition: ServiceDefinition<ServiceConfig, unknown, WiredDeps> = {
    name: 'wiring-test',
    migrations: {},
    wire: (base) => ({ ...base, made: { starts: ++wires.count } }),
    consumers: (deps) => {
      seen.set('consumers', deps);
      return [];
    },
    buildApp: (deps) => {
      seen.set('buildApp', deps);
      return express();
    },
    onStart: async (deps) => {
      seen.set('onStart', deps);
    },
    onListening: (deps) => {
      seen.set('onListening', deps);
    },
    close: async (deps) => {
      seen.set('close', deps);
    },
  };
  return definition;
}

const load = (env: Record<string, string | undefined>) =>
  loadConfig(serviceConfigSchema('wiring-test', 0), env) as ServiceConfig;

describe('a service definition’s wire', () => {
  test('when a service starts, then wire runs once and every hook, close included, gets what it made', async () => {
    const seen = new Map<string, WiredDeps>();
    const wires = { count: 0 };
    const running = await startTestService(recordingService(seen, wires), load);
    await running.stop();

    expect(wires.count).toBe(1);
    expect([...seen.keys()].sort()).toEqual(['buildApp', 'close', 'consumers', 'onListening', 'onStart']);
    for (const deps of seen.values()) expect(deps).toBe(running.deps);
    expect(running.deps.made).toEqual({ starts: 1 });
  });

  test('when one definition is started twice, then each start has deps of its own', async () => {
    const seen = new Map<string, WiredDeps>();
    const wires = { count: 0 };
    const definition = recordingService(seen, wires);
    const [first, second] = [await startTestService(definition, load), await startTestService(definition, load)];
    await Promise.all([first.stop(), second.stop()]);

    expect(wires.count).toBe(2);
    expect(first.deps).not.toBe(second.deps);
    expect([first.deps.made, second.deps.made]).toEqual([{ starts: 1 }, { starts: 2 }]);
  });
});

describe('a start whose port is taken', () => {
  test('when the port is taken, then the start fails with EADDRINUSE and stops what it started: its close hook ran, its database has no session left', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const seen = new Map<string, WiredDeps>();
    const databaseUrl = await createTestDatabase('wiring_test');
    try {
      const start = startTestService(
        recordingService(seen, { count: 0 }),
        load,
        { PORT: String(port) },
        { databaseUrl },
      );
      await expect(start).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect([...seen.keys()]).toContain('close');
      const name = new URL(databaseUrl).pathname.slice(1);
      const client = new pg.Client({ connectionString: testInfra.databaseUrl });
      await client.connect();
      const sessions = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      await client.end();
      expect(sessions.rows[0].n).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await dropTestDatabase(databaseUrl);
    }
  });
});
