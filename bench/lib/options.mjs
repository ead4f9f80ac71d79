// A bench's command line: its own options plus the two every bench takes, --json FILE (the figures
// for the suite, see report.mjs) and --smoke (the suite's `npm run bench -- --smoke`, run by CI).
import { parseArgs } from 'node:util';

/**
 * Smoke mode: tiny data sets, one-second runs and no warm-ups, to check that a bench starts, measures,
 * prints its table and exits 0 in well under a minute. Its speed targets give no verdict (see targetVerdict);
 * what is broken (failed requests, lost payments) still fails it.
 */
export const smoke = process.argv.includes('--smoke');

/**
 * The bench's options (parseArgs `options`) parsed with --json and --smoke. With --smoke,
 * `smokeDefaults` ({ duration: '1' }) replace the defaults; an option given on the command line wins.
 */
export function benchArgs(options, smokeDefaults = {}) {
  const unknown = Object.keys(smokeDefaults).filter((name) => !(name in options));
  if (unknown.length > 0) throw new Error(`smoke defaults for options the bench does not take: ${unknown.join(', ')}`);
  const chosen = Object.fromEntries(
    Object.entries(options).map(([name, option]) => [
      name,
      smoke && name in smokeDefaults ? { ...option, default: smokeDefaults[name] } : option,
    ]),
  );
  return parseArgs({
    options: { ...chosen, json: { type: 'string' }, smoke: { type: 'boolean', default: false } },
  }).values;
}

/** The options of a bench on a generated data set: --cases (see pickCases), --reload (see lib/dataset.mjs). */
export const datasetOptions = {
  cases: { type: 'string' },
  reload: { type: 'boolean', default: false },
};

/** The cases ([key, …]) named in `keys` ('a,b'; all when absent); throws on a key that is not one. */
export function pickCases(all, keys) {
  if (!keys) return all;
  const chosen = keys.split(',');
  const unknown = chosen.filter((key) => !all.some(([known]) => known === key));
  if (unknown.length > 0) {
    throw new Error(`unknown cases: ${unknown.join(', ')} (known: ${all.map(([key]) => key).join(', ')})`);
  }
  return all.filter(([key]) => chosen.includes(key));
}

/** A speed target's verdict, { ok, text }: whether it was met, or, in a smoke run, not judged (and ok). */
export function targetVerdict(met) {
  if (smoke) return { ok: true, text: 'not judged (smoke run)' };
  return { ok: met, text: met ? 'met' : 'NOT met' };
}
