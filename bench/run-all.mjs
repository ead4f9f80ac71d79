/**
 * The benchmark suite (`npm run bench`): every bench under bench/ in turn, each in a child process
 * with durations that keep the whole run near 6 minutes on a 2-core machine (after the data sets
 * are loaded once), then one table: each figure beside its reference, both measured in the same run,
 * under the date and the load average at the start and at the end.
 *
 *   node bench/run-all.mjs [--only gateway,history] [--markdown] [--smoke]
 *
 * Each bench runs as `node bench/<name>.mjs <suite options> --json <file>` and writes its figures
 * there (see lib/report.mjs); run alone, a bench keeps its own longer defaults. A bench that fails
 * says why and the suite goes on; it exits non-zero at the end when any bench failed or missed its
 * target. --markdown also prints the table as Markdown, for docs/benchmarks.md.
 *
 * --smoke (CI runs it): each bench as `node bench/<name>.mjs --smoke`, its own tiny data sets and
 * one-second runs (lib/options.mjs), at most SMOKE_LIMIT_S seconds each, SMOKE_AT_ONCE at a time (each
 * bench's output printed whole when it ends): the suite checks that every bench starts, measures and
 * reports, not how fast.
 *
 * A new bench is a file here that takes its options through lib/options.mjs benchArgs (so it honours
 * --smoke and --json) and writes its figures with lib/report.mjs, plus its entry in SUITE_OPTIONS.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { columns } from './lib/stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The options each bench runs with in the suite; a bench not named here runs with its defaults. */
const SUITE_OPTIONS = {
  gateway: ['--duration', '8', '--warmup', '2'],
  auth: ['--duration', '10', '--warmup', '2'],
  content: ['--duration', '4', '--warmup', '1', '--cases', 'list,list-deep,search-topic,search-part'],
  history: ['--requests', '200', '--cases', 'first,deep,last,cost,user,text'],
  billing: ['--rate', '20', '--duration', '10', '--users', '50'],
  bot: ['--users', '200', '--messages', '2'],
  embedded: ['--duration', '5', '--warmup', '2'],
  reads: ['--duration', '5', '--warmup', '2'],
  'web-chat': ['--streams', '200', '--asks', '10', '--duration', '3'],
};
/** The order of the table; benches not named here come after, by name. */
const ORDER = Object.keys(SUITE_OPTIONS);
/**
 * A smoke run stops a bench that takes longer than this (it then fails): a hung bench must not hold
 * CI, a machine busy with other work must not fail it (a bench takes 10–30 s when quiet, 70 s seen at load 15).
 */
const SMOKE_LIMIT_S = 180;
/**
 * Benches a smoke run runs side by side. A bench spends most of a smoke run starting processes and loading
 * its tiny data set, each in ports, databases, exchanges and Redis keys of its own: two at a time took
 * the suite from 175 s to 112 s on 2 cores, three from 80 s to 71 s (the machine 89 % busy with two, 96 %
 * with three); its figures mean nothing there, and none are judged.
 */
const SMOKE_AT_ONCE = 3;
/**
 * The benches a smoke run starts first, in this order: the slowest (reads about 38 s, bot 26 s, web-chat 23 s,
 * content 21 s; the others 7–11 s), so the lanes end near each other instead of one waiting alone for a
 * bench begun last.
 */
const SMOKE_FIRST = ['reads', 'bot', 'web-chat', 'content'];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    markdown: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
  },
});
const found = readdirSync(HERE)
  .filter((file) => file.endsWith('.mjs') && file !== path.basename(fileURLToPath(import.meta.url)))
  .map((file) => file.slice(0, -'.mjs'.length));
const unknown = values.only?.split(',').filter((name) => !found.includes(name)) ?? [];
if (unknown.length > 0) throw new Error(`no bench named ${unknown.join(', ')} (there are: ${found.join(', ')})`);
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
const benches = found
  .filter((name) => !values.only || values.only.split(',').includes(name))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

const work = await mkdtemp(path.join(tmpdir(), 'gpt-bench-suite-'));
const started = { at: new Date(), load: loadavg(), time: performance.now() };
console.log(
  `benchmark suite${values.smoke ? ' (smoke run: tiny data sets, one-second runs, no verdicts on speed)' : ''}: ` +
    `${benches.join(', ')}; ${stamp(started.at)}; load average ${load(started.load)}; ` +
    `${availableParallelism()} CPUs; node ${process.version}`,
);
const outcomes = [];
try {
  const first = (name) => {
    const rank = values.smoke ? SMOKE_FIRST.indexOf(name) : -1;
    return rank === -1 ? SMOKE_FIRST.length : rank;
  };
  const startOrder = [...benches].sort((a, b) => first(a) - first(b));
  const results = await inTurns(startOrder, values.smoke ? SMOKE_AT_ONCE : 1, runBench);
  outcomes.push(...benches.map((name) => results[startOrder.indexOf(name)]));
} finally {
  await rm(work, { recursive: true, force: true });
}
const minutes = (performance.now() - started.time) / 60_000;
const caption =
  `${values.smoke ? 'Smoke run' : 'Run'} of ${stamp(started.at)}, ${minutes.toFixed(1)} min on ${availableParallelism()} CPUs; ` +
  `load average (1 / 5 / 15 min) ${load(started.load)} at the start, ${load(loadavg())} at the end (the suite's own ` +
  `load included); at each bench's start: ${outcomes.map((o) => `${o.name} ${o.load[0].toFixed(1)}`).join(', ')}.`;
printTable(outcomes, caption);
console.log(
  `\nsuite: ${outcomes.map((o) => `${o.name} ${o.seconds.toFixed(0)} s`).join(', ')}; ` +
    `${minutes.toFixed(1)} min in all`,
);
const failed = outcomes.filter((o) => o.problem);
for (const o of failed) console.log(`${o.name}: ${o.problem}`);
process.exitCode = failed.length > 0 ? 1 : 0;

/** `new Date()` as 2026-11-23 16:40 UTC. */
function stamp(date) {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function load(averages) {
  return averages.map((value) => value.toFixed(2)).join(' / ');
}

/** `run(item)` for every item, `atOnce` at a time; the results in the items' order. */
async function inTurns(items, atOnce, run) {
  const results = [];
  let next = 0;
  const turn = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, turn));
  return results;
}

/**
 * Runs one bench and returns its figures or what went wrong. Its output shows as it comes, or, in a smoke
 * run (benches side by side), whole when it ends.
 */
async function runBench(name) {
  const json = path.join(work, `${name}.json`);
  const options = values.smoke ? ['--smoke'] : (SUITE_OPTIONS[name] ?? []);
  const args = [path.join(HERE, `${name}.mjs`), ...options, '--json', json];
  const atStart = loadavg();
  const heading = `\n━━━ ${name}: node ${path.relative(process.cwd(), args[0])} ${options.join(' ')} (load average ${load(atStart)})`;
  const output = [];
  const printTo = (stream) => (values.smoke ? (text) => output.push(String(text)) : (text) => stream.write(text));
  printTo(process.stdout)(`${heading}\n`);
  const begun = performance.now();
  // A bench stops its own processes on SIGINT (lib/processes.mjs), so a smoke run's time limit sends that.
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', values.smoke ? 'pipe' : 'inherit', 'pipe'],
    ...(values.smoke ? { timeout: SMOKE_LIMIT_S * 1000, killSignal: 'SIGINT' } : {}),
  });
  child.stdout?.on('data', printTo(process.stdout));
  const errorLines = [];
  const printError = printTo(process.stderr);
  child.stderr.on('data', (chunk) => {
    printError(chunk);
    errorLines.push(
      ...chunk
        .toString()
        .split('\n')
        .filter((line) => line.trim()),
    );
    errorLines.splice(0, errorLines.length - 50);
  });
  const code = await new Promise((resolve) => child.once('close', (exit, signal) => resolve(exit ?? signal)));
  const seconds = (performance.now() - begun) / 1000;
  process.stdout.write(output.join(''));
  const report = await readFile(json, 'utf8').then(JSON.parse, () => undefined);
  let problem;
  if (child.killed) problem = `stopped after ${SMOKE_LIMIT_S} s (a smoke run's limit)`;
  else if (!report) {
    const why = errorLines.findLast((line) => /error/i.test(line)) ?? errorLines.at(-1) ?? 'see its output above';
    problem = `failed (exit ${code}) before it reported: ${why.trim()}`;
  } else if (code !== 0) problem = report.ok ? `exited ${code}` : `missed its target (exit ${code}); figures kept`;
  return { name, seconds, load: atStart, problem, figures: report?.figures ?? [] };
}

function format(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`;
}

function printTable(results, caption) {
  const rows = [['bench', 'figure', 'measured', 'reference', 'ratio', 'note']];
  for (const { name, figures, problem } of results) {
    if (figures.length === 0) rows.push([name, 'no figures', '', '', '', problem ?? '']);
    for (const f of figures) {
      const ratio = f.measured.value && f.reference.value ? (f.measured.value / f.reference.value).toFixed(2) : '-';
      rows.push([
        name,
        f.name,
        `${f.measured.label} ${format(f.measured.value, f.unit)}`,
        `${f.reference.label} ${format(f.reference.value, f.unit)}`,
        ratio,
        f.note,
      ]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)) + 2);
  const line = columns(rows[0].map((title, i) => [title, widths[i]]));
  console.log(`\n${'═'.repeat(40)} benchmark suite ${'═'.repeat(40)}\n`);
  console.log(`${caption}\n`);
  console.log(line.header);
  for (const row of rows.slice(1)) console.log(line(row));
  if (values.markdown) {
    console.log(`\n${caption}\n`);
    for (const [i, row] of rows.entries()) {
      console.log(`| ${row.join(' | ')} |`);
      if (i === 0) console.log(`|${row.map((_, j) => (j === 4 ? '---:' : '---')).join('|')}|`);
    }
  }
}
