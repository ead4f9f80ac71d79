import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort } from '@gpt/kit/testing';
import { npmStart as start, stop } from './support/npm-start';

let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-'));
  port = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** `npm start` as a newcomer runs it: no server URLs at all. */
const npmStart = () => start({ PORT: String(port), DATA_DIR: dataDir });

describe('npm start with no URLs set (embedded default)', () => {
  test('serves the site and a healthy API, and a second start keeps the data', async () => {
    const first = await npmStart();
    try {
      expect(first.output()).toContain(`The site is at http://localhost:${port}`);
      expect(first.output()).toContain('Development admin: admin@example.com / admin12345');
      const health = await fetch(`http://127.0.0.1:${port}/api/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: 'ok',
        services: { auth: 'ok', content: 'ok', billing: 'ok', 'chat-history': 'ok', metrics: 'ok' },
      });
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.headers.get('content-type')).toContain('text/html');
      expect(await home.text()).toContain('<div id="root">');
      const tariffs = (await (await fetch(`http://127.0.0.1:${port}/api/tariffs`)).json()) as { tariffs: unknown[] };
      expect(tariffs.tariffs).toHaveLength(3);
    } finally {
      expect(await stop(first)).toBe(0);
    }

    const second = await npmStart();
    try {
      // Same data: nothing migrated, seeded or created again.
      expect(second.output()).not.toContain('migration applied');
      expect(second.output()).not.toContain('default tariffs created');
      expect(second.output()).not.toContain('admin created');
      const tariffs = (await (await fetch(`http://127.0.0.1:${port}/api/tariffs`)).json()) as { tariffs: unknown[] };
      expect(tariffs.tariffs).toHaveLength(3);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 120_000);
});
