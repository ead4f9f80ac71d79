// The generated data sets the benches keep between runs, each in a database of its own on the
// benchmark's PostgreSQL, and how a bench tells whether the one there is the one it would load.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commentOnDatabase, databaseComment, databaseUrl, dropDatabases, recreateDatabase } from './infra.mjs';
import { smoke } from './options.mjs';
import { onInterrupt, ROOT } from './processes.mjs';

/**
 * The data set `name` that `spec` describes ({ loader: version, …its sizes }) in the schema of
 * `service`, kept in the database gpt_bench_<name>. It is stale, and its database recreated empty for
 * the service to migrate and the bench to load, when `reload` asks so or when what is recorded on the
 * database differs: no database yet, another size, an older loader (bump `loader` whenever the loader
 * changes what it generates), other migrations of the service, a load cut short.
 * `loaded()` records the spec once the load is complete. A smoke run's tiny set is loaded on every
 * run into a database of that run's own, gpt_bench_smoke_<name>_<random>, which `close()` drops: a
 * full run never takes it for the real one, and smoke runs at the same time never meet.
 * Returns { url, stale, loaded(), close() }.
 */
export async function openDataset(name, service, spec, { reload }) {
  const url = databaseUrl(smoke ? `gpt_bench_smoke_${name}_${randomBytes(4).toString('hex')}` : `gpt_bench_${name}`);
  const wanted = JSON.stringify({ ...spec, schema: migrationsHash(service) });
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

/** A short hash of the service's migrations (their files' names and contents). */
function migrationsHash(service) {
  const dir = path.join(ROOT, 'services', service, 'src', 'data', 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(`${file}\n${readFileSync(path.join(dir, file), 'utf8')}\n`);
  return hash.digest('hex').slice(0, 12);
}
