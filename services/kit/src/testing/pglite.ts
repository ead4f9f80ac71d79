import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_FOLDER } from '../db/pglite-cluster';

let pristine: Promise<string> | undefined;

/**
 * A freshly initialised PGlite cluster, made once per machine and PGlite version (initdb in WASM costs
 * seconds, a copy milliseconds). Two workers making it at once both build; the first rename wins.
 */
function pristineCluster(): Promise<string> {
  pristine ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const packageFile = path.join(path.dirname(entry), '..', 'package.json');
    const { version } = JSON.parse(await readFile(packageFile, 'utf8')) as { version: string };
    const template = path.join(tmpdir(), `pglite-pristine-${version}`);
    if (existsSync(path.join(template, 'PG_VERSION'))) return template;
    const building = await mkdtemp(path.join(tmpdir(), 'pglite-pristine-build-'));
    await (await PGlite.create(building)).close();
    await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
    return template;
  })();
  return pristine;
}

/** Copies a fresh, empty PGlite cluster into `dir` (which must not exist yet). */
export async function copyPristineCluster(dir: string): Promise<void> {
  await cp(await pristineCluster(), dir, { recursive: true });
}

/**
 * A new DATA_DIR for the embedded default whose PGlite cluster is already initialised, as the
 * product's first start would leave it before migrating: what a test of the embedded database needs,
 * without paying initdb again. Remove it when done.
 */
export async function pgliteDataDir(prefix: string): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  await copyPristineCluster(path.join(dataDir, PGLITE_FOLDER));
  return dataDir;
}
