// What a bench hands to the suite (bench/run-all.mjs): with `--json FILE` it also writes its figures
// there, each a measured value beside the reference it is read against, both from the same run.
import { writeFile } from 'node:fs/promises';

/** The option every bench takes, for parseArgs. */
export const jsonOption = { json: { type: 'string' } };

/** The options of a bench on a generated data set: --cases (see pickCases), --reload, --json. */
export const datasetOptions = {
  cases: { type: 'string' },
  reload: { type: 'boolean', default: false },
  ...jsonOption,
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

/**
 * One row of the suite's table. `measured` and `reference` are [label, value] in `unit` ('req/s' or
 * 'ms'); `note` says what to know to read it (a target, what the reference is).
 */
export function figure(name, unit, measured, reference, note = '') {
  return {
    name,
    unit,
    measured: { label: measured[0], value: measured[1] },
    reference: { label: reference[0], value: reference[1] },
    note,
  };
}

/** Writes the figures to `file` when the bench was asked to (--json); `ok` is the bench's verdict. */
export async function writeFigures(file, figures, ok) {
  if (file) await writeFile(file, JSON.stringify({ ok, figures }, null, 2));
}
