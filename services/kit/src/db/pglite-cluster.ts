import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type Migration } from 'kysely';
import type { Logger } from '../logger';
import { migrate } from './migrate';
import { holdSession, pgliteDialect, pgliteSession, type PgliteSession } from './pglite-dialect';

/** The folder under DATA_DIR that holds the one PGlite cluster of all services. */
export const PGLITE_FOLDER = 'pglite';

/**
 * An embedded run holds little data; PostgreSQL's default 128 MB of shared buffers would be most of
 * the process's memory. (Measured: 16 MB keeps a reopened cluster at about 240 MB RSS instead of 300.)
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB'];

// int8 and numeric stay strings, exactly as on the wire: money is never a float.
const RAW = (value: string) => value;

interface Cluster {
  session: PgliteSession;
  users: number;
}

/** Open clusters by folder: every service of the process that opens the same DATA_DIR shares one. */
const clusters = new Map<string, Promise<Cluster>>();
/** Clusters being closed, so a reopen of the folder waits until the files are let go. */
const closing = new Map<string, Promise<void>>();

/**
 * The service's schema in the one PGlite cluster under `dataDir` (opened on first use, closed when its
 * last service closes). Each service keeps its own schema and migrations; the session's search_path is
 * the schema of whoever holds it. A database of the earlier layout (DATA_DIR/<service>, one cluster
 * per service) is taken over by `takeOverEarlier` once the new schema is migrated.
 */
export async function openPgliteSchema(dataDir: string, service: string) {
  const dir = path.resolve(dataDir, PGLITE_FOLDER);
  const schema = service.replace(/-/g, '_');
  let opening = clusters.get(dir);
  if (!opening) {
    opening = openCluster(dir);
    clusters.set(dir, opening);
    opening.catch(() => clusters.delete(dir));
  }
  const cluster = await opening;
  cluster.users += 1;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    cluster.users -= 1;
    if (cluster.users > 0) return;
    clusters.delete(dir);
    const done = cluster.session.queue.then(() => cluster.session.pglite.close());
    closing.set(dir, done);
    await done.finally(() => closing.delete(dir));
  };
  try {
    const earlier = await earlierDatabase(cluster.session, path.resolve(dataDir, service), schema);
    return {
      kind: 'pglite' as const,
      schema,
      dialect: pgliteDialect(cluster.session, schema),
      close,
      takeOverEarlier: earlier
        ? (migrations: Record<string, Migration>, logger: Logger) =>
            takeOver({ earlier, schema, session: cluster.session, migrations, logger })
        : undefined,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Creates the service's schema; answers the folder of its earlier-layout database when there is one
 * to take over, which is only while the schema is new. Both at once is refused: nothing is overwritten.
 */
async function earlierDatabase(session: PgliteSession, earlier: string, schema: string) {
  const release = await holdSession(session, 'public');
  try {
    const migrated = await session.pglite.query<{ found: boolean }>(`select to_regclass($1) is not null as found`, [
      `"${schema}".kysely_migration`,
    ]);
    await session.pglite.exec(`create schema if not exists "${schema}"`);
    if (!existsSync(path.join(earlier, 'PG_VERSION'))) return undefined;
    if (!migrated.rows[0]!.found) return earlier;
  } finally {
    release();
  }
  throw new Error(
    `${earlier} holds a database of an earlier version (one PGlite per service), but ` +
      `${path.join(path.dirname(earlier), PGLITE_FOLDER)} already holds this service's data (schema "${schema}"). ` +
      `Nothing was overwritten: move ${earlier} away to keep the newer data, or move the ${PGLITE_FOLDER} folder away to take over the earlier one.`,
  );
}

/**
 * Copies every table of the earlier database (its `public` schema, first migrated to the same
 * version) into the service's new schema, replacing what the new schema's migrations seeded, and
 * carries its sequences over; then renames its folder to `<service>.taken-over`, kept, never deleted.
 */
async function takeOver(options: {
  earlier: string;
  schema: string;
  session: PgliteSession;
  migrations: Record<string, Migration>;
  logger: Logger;
}): Promise<void> {
  const { earlier, schema, session, logger } = options;
  logger.info({ from: earlier }, 'taking over the database of the earlier layout');
  const old = await PGlite.create(earlier, { parsers: { 20: RAW, 1700: RAW }, startParams: START_PARAMS });
  try {
    const oldDb = new Kysely<unknown>({ dialect: pgliteDialect(pgliteSession(old), 'public') });
    await migrate(oldDb, options.migrations, logger);
    const tables = await old.query<{ name: string; columns: string[] }>(
      `select c.table_name as name,
              array_agg(quote_ident(c.column_name::text) order by c.ordinal_position) as columns
         from information_schema.columns c
         join information_schema.tables t using (table_schema, table_name)
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
          and c.table_name not like 'kysely_migration%'
        group by c.table_name`,
    );
    const sequences = await old.query<{ name: string; value: string | null }>(
      `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
    );
    const release = await holdSession(session, schema);
    const into = (table: string) => `"${schema}".${quoteIdent(table)}`;
    try {
      // One transaction: a takeover cut short leaves nothing behind but the new schema, dropped below.
      await session.pglite.exec('begin; set local session_replication_role = replica');
      if (tables.rows.length > 0) {
        await session.pglite.exec(`truncate ${tables.rows.map((table) => into(table.name)).join(', ')}`);
      }
      for (const table of tables.rows) {
        const columns = table.columns.join(', ');
        const { blob } = await old.query(`copy public.${quoteIdent(table.name)} (${columns}) to '/dev/blob'`);
        if (blob) await session.pglite.query(`copy ${into(table.name)} (${columns}) from '/dev/blob'`, [], { blob });
      }
      for (const sequence of sequences.rows) {
        if (sequence.value !== null) {
          await session.pglite.query(`select setval($1, $2::bigint, true)`, [into(sequence.name), sequence.value]);
        }
      }
      await session.pglite.exec('commit');
    } catch (err) {
      // The next start finds the schema new again and retries.
      await session.pglite.exec(`rollback; drop schema "${schema}" cascade`);
      throw err;
    } finally {
      release();
    }
  } finally {
    await old.close();
  }
  const kept = `${earlier}.taken-over`;
  await rename(earlier, kept);
  logger.info({ from: earlier, kept }, 'database of the earlier layout taken over; its folder is kept');
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function openCluster(dir: string): Promise<Cluster> {
  await closing.get(dir);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await createCluster(dir);
  const pglite = await PGlite.create(dir, { parsers: { 20: RAW, 1700: RAW }, startParams: START_PARAMS });
  return { session: pgliteSession(pglite), users: 0 };
}

/**
 * initdb in WASM needs several hundred megabytes that the process would keep for good; a short-lived
 * child process runs it, so this process only ever opens an existing cluster.
 */
async function createCluster(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(${JSON.stringify(entry)}).PGlite.create(process.argv[1]).then((db) => db.close())`;
  const child = spawn(process.execPath, ['-e', script, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`creating the PGlite cluster in ${dir} failed (exit ${code}): ${errors.trim()}`);
}
