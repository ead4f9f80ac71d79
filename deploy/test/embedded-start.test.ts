import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INFRA = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'PORT', 'DATA_DIR'];

let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-'));
  port = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** `npm start` as a newcomer runs it: no server URLs at all. */
async function npmStart(): Promise<Started> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !INFRA.includes(key)));
  const child = spawn(process.execPath, ['deploy/start.mjs'], {
    cwd: root,
    env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const onData = () => output.includes('The site is at') && resolve();
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return { child, output: () => output };
}

function stop({ child }: Started): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

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
