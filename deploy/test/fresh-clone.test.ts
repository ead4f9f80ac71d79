import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The machine's own shell: npm scripts put `node_modules/.bin` (and with it the project's Node 24) first
 * on PATH, which a newcomer's first `npm install` does not have.
 */
const newcomerPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`))
  .join(path.delimiter);

let clone: string;
let installOutput: string;

beforeAll(async () => {
  clone = await mkdtemp(path.join(os.tmpdir(), 'fresh-clone-'));
  await run('git', ['clone', '--quiet', root, clone]);
  // The README's first command as far as it decides the lock and warns about engines (the same tree npm
  // resolves, without unpacking 800 packages: CI's own install does that); install scripts change no file git tracks.
  const npmInstall = [
    'install',
    '--package-lock-only',
    '--prefer-offline',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
  ];
  const installed = await run('npm', npmInstall, {
    cwd: clone,
    env: { ...process.env, PATH: newcomerPath, npm_config_loglevel: 'warn' },
    maxBuffer: 16 * 1024 * 1024,
  });
  installOutput = installed.stdout + installed.stderr;
}, 60_000);
afterAll(() => rm(clone, { recursive: true, force: true }));

describe('npm install on a fresh clone', () => {
  test('leaves git status clean: package-lock.json is what npm install writes', async () => {
    const { stdout } = await run('git', ['status', '--porcelain'], { cwd: clone });
    expect(stdout).toBe('');
  });

  test('warns about an unsupported engine only for the packages the README names', async () => {
    const warned = [...installOutput.matchAll(/EBADENGINE\s+package: '?([^',\n]+)'?,/g)].map(([, name]) => name);
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const named = readme.match(/^.*EBADENGINE.*$/m)?.[0] ?? '';
    for (const name of warned) expect(named).toContain(`\`${name!.replace(/@[^@]*$/, '')}\``);
  });
});
