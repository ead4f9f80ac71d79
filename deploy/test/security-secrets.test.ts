import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { signAccessToken } from '@gpt/kit';
import { freePort, pgliteDataDir } from '@gpt/kit/testing';
import { npmStart, npmStartRefused, stop } from './support/npm-start';

/**
 * `npm start` exactly as the README says, with no secrets set: nothing the repository holds may
 * sign a token or pass as the bot. These are the development defaults the code used to carry.
 */
const OLD_DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789abcdef';
const OLD_DEV_BOT_API_KEY = 'dev-only-bot-key';

let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await pgliteDataDir('secrets');
  port = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const site = (urlPath: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${urlPath}`, { headers });
const asAdmin = (token: string) => site('/api/admin/users', { authorization: `Bearer ${token}` });

async function adminToken(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin12345' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe('the secrets of a development start', () => {
  test('none comes from the code: generated at the first start, kept under DATA_DIR for the owner only, the same after a restart', async () => {
    const file = path.join(dataDir, 'secrets.json');
    const first = await npmStart({ PORT: String(port), DATA_DIR: dataDir });
    let token: string;
    let secrets: { JWT_SECRET: string; BOT_API_KEY: string };
    try {
      expect(first.output()).toContain(file);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      secrets = JSON.parse(await readFile(file, 'utf8')) as typeof secrets;
      expect(secrets.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
      expect(first.output()).not.toContain(secrets.JWT_SECRET);

      // What anyone reading the repository could make: refused.
      const forged = signAccessToken({ sub: '1', role: 'admin', ver: 0 }, OLD_DEV_JWT_SECRET);
      expect((await asAdmin(forged)).status).toBe(401);
      expect((await site('/api/bot/models', { 'x-bot-key': OLD_DEV_BOT_API_KEY })).status).toBe(401);

      token = await adminToken();
      expect((await asAdmin(token)).status).toBe(200);
      expect((await site('/api/bot/models', { 'x-bot-key': secrets.BOT_API_KEY })).status).toBe(200);
    } finally {
      expect(await stop(first)).toBe(0);
    }

    const second = await npmStart({ PORT: String(port), DATA_DIR: dataDir });
    try {
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(secrets);
      expect((await asAdmin(token)).status).toBe(200);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 180_000);

  test('production without them refuses to start, naming each, and generates nothing', async () => {
    const productionDir = await mkdtemp(path.join(os.tmpdir(), 'secrets-production-'));
    try {
      const { code, output } = await npmStartRefused({
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: productionDir,
        SITE_URL: 'https://gpt.example.ru',
        ADMIN_EMAIL: 'admin@example.ru',
        ADMIN_PASSWORD: 'production-password',
        YOOKASSA_SHOP_ID: '1',
        YOOKASSA_SECRET_KEY: 'key',
      });
      expect(code).not.toBe(0);
      expect(output).toMatch(/JWT_SECRET: is required/);
      expect(output).toMatch(/BOT_API_KEY: is required/);
      await expect(stat(path.join(productionDir, 'secrets.json'))).rejects.toThrow();
    } finally {
      await rm(productionDir, { recursive: true, force: true });
    }
  }, 60_000);
});
