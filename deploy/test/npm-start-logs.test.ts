import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort, pgliteDataDir } from '@gpt/kit/testing';
import { eventually } from './support/async';
import { npmStart, stop } from './support/npm-start';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await pgliteDataDir('npm-start-logs');
  port = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** The processes started by `pid` (every thread's children), from the kernel's own table. */
async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8')));
  return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
}

const commandOf = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');

describe('npm start as a person watches it: its processes, its log and its stop', () => {
  test('one process, the site announced once the gateway listens, no token or reset link in the log, a stop that says what stopped', async () => {
    const started = await npmStart({ PORT: String(port), DATA_DIR: dataDir });
    const lines = () => started.output().split('\n').filter(Boolean);
    let code: number | null;
    try {
      // Not a launcher beside the product: the launcher is the product, with no process of its own started.
      expect(await Promise.all((await childrenOf(started.child.pid!)).map(commandOf))).toEqual([]);

      // Output that is not a terminal gets JSON lines, the announcement among them, after the gateway listens.
      const listening = lines().findIndex((line) => line.includes('"msg":"gateway listening"'));
      const announced = lines().findIndex((line) => line.includes(`The site is at http://localhost:${port}`));
      expect(listening).toBeGreaterThanOrEqual(0);
      expect(announced).toBeGreaterThan(listening);
      expect(lines().filter((line) => line.includes('The site is at'))).toHaveLength(1);
      for (const line of lines().filter((entry) => entry.startsWith('{'))) expect(() => JSON.parse(line)).not.toThrow();

      // The sandbox bot's first calls to its Bot API are logged with the token taken out.
      await eventually(async () => expect(started.output()).toContain('/bot[REDACTED]/getMe'), 20_000);

      // A reset link outside production without SMTP_URL: kept in a file the log names, never in the log.
      const reset = await fetch(`http://127.0.0.1:${port}/api/auth/password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com' }),
      });
      expect(reset.status).toBe(202);
      const file = await eventually(async () => {
        const line = lines().find((entry) => entry.includes('the mail is kept in a file'));
        if (!line) throw new Error('the mail has not been kept yet');
        return (JSON.parse(line) as { file: string }).file;
      }, 10_000);
      const link = (await readFile(file, 'utf8')).match(/\/reset-password\/([\w-]+)/)![1]!;
      // Following the link logs the page's address too.
      expect((await fetch(`http://127.0.0.1:${port}/reset-password/${link}`)).status).toBe(200);
      await eventually(async () => expect(started.output()).toContain('"url":"/reset-password/[REDACTED]"'), 10_000);
      expect(started.output()).not.toContain(link);
    } finally {
      code = await stop(started);
    }
    expect(code).toBe(0);
    expect(started.output()).not.toMatch(/\/bot\d+:/);
    expect(lines().at(-1)).toContain(
      `Stopped: gateway, auth, content, billing, chat-history, metrics, bot. Data is kept in ${path.join(dataDir, 'pglite')}`,
    );
  }, 120_000);

  test('the build leaves no esbuild process running', async () => {
    const { buildServers } = (await import(path.join(root, 'deploy/build.mjs'))) as {
      buildServers: () => Promise<void>;
    };
    // Another test in this jest worker may have started esbuild's service itself: only new processes count.
    const before = new Set(await childrenOf(process.pid));
    await buildServers();
    // Stopped means gone once the kernel has reaped it, a moment after the kill.
    await eventually(async () => {
      const started = (await childrenOf(process.pid)).filter((pid) => !before.has(pid));
      const commands = await Promise.all(started.map(commandOf));
      expect(commands.filter((command) => command.includes('esbuild'))).toEqual([]);
    }, 5_000);
  }, 120_000);
});
