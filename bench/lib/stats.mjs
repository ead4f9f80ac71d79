// Reading and printing the figures.

/** Nearest-rank percentiles of `values` (ms): p50, p95, p99 and the maximum. */
export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) };
}

export function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Fixed-width text columns: columns([['case', 40], ['req/s', -9]]) gives a function that lays
 * out one row of cells, and its `header`; a negative width aligns the column to the right.
 */
export function columns(spec) {
  const line = (cells) =>
    cells
      .map((cell, i) => {
        const width = spec[i][1];
        return width < 0 ? String(cell).padStart(-width) : String(cell).padEnd(width);
      })
      .join('')
      .trimEnd();
  line.header = line(spec.map(([title]) => title));
  return line;
}
