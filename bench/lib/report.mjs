// What a bench hands to the suite (bench/run-all.mjs): with `--json FILE` it also writes its figures
// there (lib/options.mjs parses it), each a measured value beside the reference it is read against,
// both from the same run.
import { writeFile } from 'node:fs/promises';

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
