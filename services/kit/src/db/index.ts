import { Kysely, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger';
import { migrate } from './migrate';
import { openPgliteSchema } from './pglite-cluster';
import { TrackedKysely } from './transaction-guard';

export type { Migration };

export interface Database<DB> {
  db: Kysely<DB>;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  /**
   * Runs `work` while no other process runs startup work on this database: replicas starting
   * together on an empty database migrate and seed one after another, never at once.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** The owning service; names its schema in the shared PGlite cluster. */
  service: string;
  /** Full URL of this service's own database; absent means its schema in the one PGlite cluster under dataDir. */
  url?: string;
  dataDir?: string;
  migrations: Record<string, Migration>;
  logger: Logger;
  poolSize?: number;
  /** Development and tests: each transaction is known to the code it runs, so a network call inside it throws. */
  trackTransactions?: boolean;
}

/** Opens the service's own database (creating it when missing) and runs its migrations. */
export async function openDatabase<DB>(options: DatabaseOptions): Promise<Database<DB>> {
  const opened = options.url
    ? await openPostgres(options.url, options.poolSize ?? 10)
    : await openPgliteSchema(options.dataDir ?? './data', options.service);
  const db = options.trackTransactions
    ? new TrackedKysely<DB>({ dialect: opened.dialect })
    : new Kysely<DB>({ dialect: opened.dialect });
  const database: Database<DB> = {
    db,
    kind: opened.kind,
    async ping() {
      await sql`select 1`.execute(db);
    },
    exclusive: (work) => (options.url ? withStartupLock(options.url, work) : work()),
    async close() {
      await db.destroy();
      await opened.close();
    },
  };
  try {
    await database.exclusive(() =>
      migrate(db, options.migrations, options.logger, 'schema' in opened ? opened.schema : undefined),
    );
    if ('takeOverEarlier' in opened) await opened.takeOverEarlier?.(options.migrations, options.logger);
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

/** The advisory lock every process takes for its startup work (per database: PostgreSQL scopes these locks so). */
const STARTUP_LOCK = 4_200_301;

/** Holds a session-level advisory lock on a connection of its own around `work`; a process that dies releases it with its session. */
async function withStartupLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work();
  } finally {
    await client.end();
  }
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
