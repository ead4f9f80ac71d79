import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** What a newcomer's shell does not have: no server URLs, no secrets. */
const UNSET = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'PORT', 'DATA_DIR', 'JWT_SECRET', 'BOT_API_KEY', 'SITE_URL'];

export interface Started {
  child: ChildProcess;
  output: () => string;
}

function launch(env: Record<string, string>): Started {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !UNSET.includes(key)));
  const child = spawn(process.execPath, ['deploy/start.mjs'], {
    cwd: root,
    env: { ...inherited, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** `npm start` as a newcomer runs it (plus `env`), resolved once the site is up. */
export async function npmStart(env: Record<string, string>): Promise<Started> {
  const started = launch(env);
  await new Promise<void>((resolve, reject) => {
    const onData = () => started.output().includes('The site is at') && resolve();
    started.child.stdout!.on('data', onData);
    started.child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${started.output()}`)));
  });
  return started;
}

/** `npm start` that is expected to refuse: its exit code and everything it printed. */
export async function npmStartRefused(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const started = launch(env);
  const code = await new Promise<number | null>((resolve) => started.child.once('exit', resolve));
  return { code, output: started.output() };
}

export function stop({ child }: Started): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
