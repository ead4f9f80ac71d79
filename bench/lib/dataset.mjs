// The generated data sets the benches keep between runs, each in a database of its own on the
// benchmark's PostgreSQL, and how a bench tells whether the one there is the one it would load.
import { randomBytes } from 'node:crypto';
import { commentOnDatabase, databaseComment, databaseUrl, dropDatabases, recreateDatabase } from './infra.mjs';
import { smoke } from './options.mjs';
import { onInterrupt } from './processes.mjs';

/**
 * The data set `name` that `spec` describes ({ loader: version, …its sizes }), kept in the database
 * gpt_bench_<name>. It is stale, and its database recreated empty for the bench to load, when
 * `reload` asks so or when the spec recorded on the database differs: no database yet, another size,
 * an older loader (bump `loader` whenever the loader changes what it generates), a load cut short.
 * `loaded()` records the spec once the load is complete. A smoke run's tiny set is loaded on every
 * run into a database of that run's own, gpt_bench_smoke_<name>_<random>, which `close()` drops: a
 * full run never takes it for the real one, and smoke runs at the same time never meet.
 * Returns { url, stale, loaded(), close() }.
 */
export async function openDataset(name, spec, { reload }) {
  const url = databaseUrl(smoke ? `gpt_bench_smoke_${name}_${randomBytes(4).toString('hex')}` : `gpt_bench_${name}`);
  const wanted = JSON.stringify(spec);
  let stale = smoke || reload;
  if (!stale) {
    const recorded = await databaseComment(url);
    stale = recorded !== wanted;
    if (stale) console.log(`data set ${name}: ${recorded ?? 'none recorded'}, the bench needs ${wanted}: reloading`);
  }
  if (stale) await recreateDatabase(url);
  const close = () => (smoke ? dropDatabases([url]) : Promise.resolve());
  onInterrupt(close);
  return {
    url,
    stale,
    loaded: () => commentOnDatabase(url, wanted),
    close,
  };
}
