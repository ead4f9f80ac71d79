import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger';
import { pgliteDialect } from './pglite-dialect';

export type { Migration };

export interface Database<DB> {
  db: Kysely<DB>;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** The owning service; names the PGlite folder. */
  service: string;
  /** Full URL of this service's own database; absent means PGlite under dataDir. */
  url?: string;
  dataDir?: string;
  migrations: Record<string, Migration>;
  logger: Logger;
  poolSize?: number;
}

// int8 and numeric stay strings, exactly as on the wire: money is never a float.
const RAW = (value: string) => value;

/** Opens the service's own database (creating it when missing) and runs its migrations. */
export async function openDatabase<DB>(options: DatabaseOptions): Promise<Database<DB>> {
  const opened = options.url ? await openPostgres(options.url, options.poolSize ?? 10) : await openPglite(options);
  const db = new Kysely<DB>({ dialect: opened.dialect });
  const database: Database<DB> = {
    db,
    kind: opened.kind,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
      await opened.close();
    },
  };
  try {
    await migrate(db, options.migrations, options.logger);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function openPostgres(url: string, max: number) {
  await createDatabaseIfMissing(url);
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // A dropped server connection surfaces here; the pool replaces the client, the process lives on.
  pool.on('error', () => {});
  // The pool listens only to idle clients. One that is checked out (mid-transaction) when its server
  // session ends (a restart, a terminated backend) would otherwise raise an unhandled 'error' that
  // ends the process; its queries fail on their own and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return { kind: 'postgres' as const, dialect: new PostgresDialect({ pool }), close: async () => {} };
}

// initdb in WASM is the slow part of a first start; it runs once per process and each new
// service folder starts from a copy of its result.
let emptyCluster: Promise<Blob> | undefined;
function emptyClusterImage(): Promise<Blob> {
  emptyCluster ??= (async () => {
    const scratch = await PGlite.create('memory://');
    try {
      return (await scratch.dumpDataDir('none')) as Blob;
    } finally {
      await scratch.close();
    }
  })();
  return emptyCluster;
}

async function openPglite(options: DatabaseOptions) {
  const dir = path.resolve(options.dataDir ?? './data', options.service);
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create(dir, {
    parsers: { 20: RAW, 1700: RAW },
    ...(fresh ? { loadDataDir: await emptyClusterImage() } : {}),
  });
  return {
    kind: 'pglite' as const,
    dialect: pgliteDialect(pglite),
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
  };
}

export async function createDatabaseIfMissing(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Database name "${name}" must be lowercase latin, digits or _`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`create database "${name}"`).catch((err: { code?: string }) => {
        // Another replica created it first.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

async function migrate<DB>(db: Kysely<DB>, migrations: Record<string, Migration>, logger: Logger) {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Success') logger.info({ migration: result.migrationName }, 'migration applied');
    if (result.status === 'Error') logger.error({ migration: result.migrationName }, 'migration failed');
  }
  if (error) throw error;
}
