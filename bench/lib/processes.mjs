// The processes a benchmark starts: one group per bench, stopped last-started-first (also on Ctrl-C),
// waited for until they answer, and measured for the CPU time they use.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const KILL_AFTER_MS = 10_000;
const cleanups = [];

/**
 * Runs `cleanup` (dropping a bench's databases) also when the bench is interrupted (Ctrl-C, or the
 * suite's time limit on a smoke run), after its processes are stopped; the bench's own `finally`
 * still does it on a normal end.
 */
export function onInterrupt(cleanup) {
  cleanups.push(cleanup);
}

/**
 * A set of child processes. `node(name, script, env)` runs a script on this Node (the production
 * bundles, or a bench's own helper roles); `start(name, command, args, options)` runs anything.
 * Children get PATH, NODE_ENV=production and `env`, nothing else of this shell's environment, so a
 * variable set for something else cannot change what is measured. Their stdout goes nowhere (the
 * cost of producing logs is part of the figures, a terminal showing them is not); stderr shows.
 */
export function processGroup() {
  const children = [];
  const stopAll = async () => {
    for (const child of children.splice(0).reverse()) await child.stop();
  };
  process.once('SIGINT', async () => {
    await stopAll();
    for (const cleanup of cleanups) await cleanup().catch((err) => console.error(`cleanup failed: ${err.message}`));
    process.exit(130);
  });

  const start = (name, command, args, { env = {}, stopSignal = 'SIGTERM' } = {}) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let stopping = false;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.once('exit', (code, signal) => {
      if (!stopping) console.error(`${name} exited unexpectedly (${code ?? signal})`);
    });
    const handle = {
      name,
      pid: child.pid,
      running: () => child.exitCode === null && child.signalCode === null,
      async stop() {
        if (!handle.running()) return;
        stopping = true;
        child.kill(stopSignal);
        const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        await exited;
        clearTimeout(timer);
      },
    };
    children.push(handle);
    return handle;
  };

  return {
    start,
    node: (name, script, env, args = []) => start(name, process.execPath, [script, ...args], { env }),
    stopAll,
  };
}

/** Runs `main(group)` with a new processGroup(), and stops every process it started however main ends. */
export async function withProcesses(main) {
  const group = processGroup();
  try {
    return await main(group);
  } finally {
    await group.stopAll();
  }
}

/** Resolves once `url` answers 2xx; throws if `child` exits first or after `timeoutMs`. */
export async function waitForReady(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!child.running()) throw new Error(`${child.name} exited before ${url} answered`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * CPU time (user + system, ms) a process and its children (nginx's worker) have used so far: the
 * cost per request can be read even when the machine is busy with other work and req/s swings.
 */
export function cpuMs(pid) {
  if (!pid) return 0;
  let ticks = 0;
  const visit = (id) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const kids = readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim();
        for (const kid of kids ? kids.split(' ') : []) visit(kid);
      }
    } catch {
      // the process is gone
    }
  };
  visit(pid);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** Resident memory of a process (MB), from /proc. */
export function rssMb(pid) {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}
