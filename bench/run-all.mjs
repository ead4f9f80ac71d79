/**
 * The benchmark suite (`npm run bench`): every bench under bench/ in turn, each in a child process
 * with durations that keep the whole run near 10 minutes on a 2-core machine (after the data sets
 * are loaded once), then one table: each figure beside its reference, both measured in the same run.
 *
 *   node bench/run-all.mjs [--only gateway,history] [--markdown]
 *
 * Each bench runs as `node bench/<name>.mjs <suite options> --json <file>` and writes its figures
 * there (see lib/report.mjs); run alone, a bench keeps its own longer defaults. A bench that fails
 * says why and the suite goes on; it exits non-zero at the end when any bench failed or missed its
 * target. --markdown also prints the table as Markdown, for the README.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
};
/** The order of the table; benches not named here come after, by name. */
const ORDER = Object.keys(SUITE_OPTIONS);

const { values } = parseArgs({
  options: { only: { type: 'string' }, markdown: { type: 'boolean', default: false } },
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
const started = performance.now();
const outcomes = [];
try {
  for (const name of benches) outcomes.push(await runBench(name));
} finally {
  await rm(work, { recursive: true, force: true });
}
printTable(outcomes);
const minutes = (performance.now() - started) / 60_000;
console.log(
  `\nsuite: ${outcomes.map((o) => `${o.name} ${o.seconds.toFixed(0)} s`).join(', ')}; ` +
    `${minutes.toFixed(1)} min in all`,
);
const failed = outcomes.filter((o) => o.problem);
for (const o of failed) console.log(`${o.name}: ${o.problem}`);
process.exitCode = failed.length > 0 ? 1 : 0;

/** Runs one bench; its output shows as it comes; returns its figures or what went wrong. */
async function runBench(name) {
  const json = path.join(work, `${name}.json`);
  const args = [path.join(HERE, `${name}.mjs`), ...(SUITE_OPTIONS[name] ?? []), '--json', json];
  console.log(`\n━━━ ${name}: node ${path.relative(process.cwd(), args[0])} ${args.slice(1, -2).join(' ')}`);
  const begun = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  const errorLines = [];
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
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
  const report = await readFile(json, 'utf8').then(JSON.parse, () => undefined);
  let problem;
  if (!report) {
    const why = errorLines.findLast((line) => /error/i.test(line)) ?? errorLines.at(-1) ?? 'see its output above';
    problem = `failed (exit ${code}) before it reported: ${why.trim()}`;
  } else if (code !== 0) problem = report.ok ? `exited ${code}` : `missed its target (exit ${code}); figures kept`;
  return { name, seconds, problem, figures: report?.figures ?? [] };
}

function format(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`;
}

function printTable(results) {
  const rows = [['bench', 'figure', 'measured', 'reference', 'ratio', 'note']];
  for (const { name, figures, problem } of results) {
    if (figures.length === 0) rows.push([name, 'no figures', '', '', '', problem ?? '']);
    for (const f of figures) {
      const ratio = f.reference.value ? (f.measured.value / f.reference.value).toFixed(2) : '-';
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
  console.log(line.header);
  for (const row of rows.slice(1)) console.log(line(row));
  if (values.markdown) {
    console.log('');
    for (const [i, row] of rows.entries()) {
      console.log(`| ${row.join(' | ')} |`);
      if (i === 0) console.log(`|${row.map((_, j) => (j === 4 ? '---:' : '---')).join('|')}|`);
    }
  }
}
