// Where an embedded process's tail comes from, loaded into it with `node --import` (bench/reads.mjs
// --probe): how long its event loop was held up, how long garbage collection paused it, and how busy
// its one PGlite session was. Each SIGUSR2 prints the figures since the previous one to stderr, as
// one line `tail-probe {json}`, and starts counting again.
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let since = performance.now();
let gc = { count: 0, ms: 0, maxMs: 0 };
let pglite = { calls: 0, ms: 0, maxMs: 0 };

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count += 1;
    gc.ms += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

// Every statement of every service goes through one of these two on the shared session.
for (const method of ['query', 'exec']) {
  const original = PGlite.prototype[method];
  PGlite.prototype[method] = async function timed(...args) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      const ms = performance.now() - started;
      pglite.calls += 1;
      pglite.ms += ms;
      pglite.maxMs = Math.max(pglite.maxMs, ms);
    }
  };
}

const ms = (ns) => Number((ns / 1e6).toFixed(1));
const round = (record) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, Number(value.toFixed(1))]));

process.on('SIGUSR2', () => {
  const wallMs = performance.now() - since;
  const report = {
    wallMs: Math.round(wallMs),
    loopDelay: {
      p50: ms(loop.percentile(50)),
      p99: ms(loop.percentile(99)),
      max: ms(loop.max),
    },
    gc: { ...round(gc), share: Number((gc.ms / wallMs).toFixed(3)) },
    pglite: {
      ...round(pglite),
      share: Number((pglite.ms / wallMs).toFixed(3)),
    },
    memoryMb: Object.fromEntries(
      Object.entries(process.memoryUsage()).map(([kind, bytes]) => [kind, Math.round(bytes / 2 ** 20)]),
    ),
  };
  process.stderr.write(`tail-probe ${JSON.stringify(report)}\n`);
  loop.reset();
  since = performance.now();
  gc = { count: 0, ms: 0, maxMs: 0 };
  pglite = { calls: 0, ms: 0, maxMs: 0 };
});
