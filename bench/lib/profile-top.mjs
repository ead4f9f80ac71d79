/**
 * The frames a V8 CPU profile spent its time in (bench/reads.mjs --cpu-prof writes them; so does
 * `node --cpu-prof`): the top functions by self time, and the self time by where the code comes from
 * (a package under node_modules, Node's own `node:` modules, the product's bundle, V8's
 * garbage collector, idle), each as a share of the busy (non-idle) time.
 *
 *   node bench/lib/profile-top.mjs FILE.cpuprofile [--top 15]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { columns } from './stats.mjs';

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '15' } },
  allowPositionals: true,
});
if (positionals.length !== 1) throw new Error('usage: node bench/lib/profile-top.mjs FILE.cpuprofile [--top 15]');
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));

/** Self time (µs) of each node: the time to the next sample, summed over the samples taken in it. */
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}

const IDLE = new Set(['(idle)', '(program)']);
/** Where a frame's code comes from. */
function originOf({ functionName, url }) {
  if (functionName === '(garbage collector)') return 'V8 garbage collector';
  if (IDLE.has(functionName)) return functionName;
  if (!url) return 'V8 / native';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg && !pkg[1].startsWith('.cache')) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return 'the product (bundle)';
}

const byFrame = new Map();
const byOrigin = new Map();
let busy = 0;
let idle = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const frame = node.callFrame;
  if (frame.functionName === '(idle)') {
    idle += us;
    continue;
  }
  busy += us;
  const file = frame.url ? frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '') : '';
  const key = `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
  byFrame.set(key, (byFrame.get(key) ?? 0) + us);
  const origin = originOf(frame);
  byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + us);
}

const wall = profile.endTime - profile.startTime;
console.log(
  `${positionals[0]}: ${(wall / 1e6).toFixed(1)} s profiled, busy ${(busy / 1e6).toFixed(2)} s (${((100 * busy) / wall).toFixed(0)} %), idle ${(idle / 1e6).toFixed(2)} s`,
);
const print = (title, map, count) => {
  const line = columns([
    [title, 90],
    ['self ms', -9],
    ['% busy', -8],
  ]);
  console.log(`\n${line.header}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(line([key.slice(0, 89), (us / 1000).toFixed(0), ((100 * us) / busy).toFixed(1)]));
  }
};
print('function (self time)', byFrame, Number(values.top));
print('origin', byOrigin, 20);
