import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createDatabaseIfMissing, openDatabase, type Migration } from '../db';
import { createLogger } from '../logger';
import { testInfra, uniqueName } from './infra';

/*
 * Databases on the test PostgreSQL server. A service's database is a copy of a template already migrated
 * (copying costs a quarter of migrating), and a copy a test is done with goes back to a pool instead of
 * being dropped: emptied, checked against its template and kept under a pooled name, for the next test to
 * take with a rename. A CREATE DATABASE costs PostgreSQL about 0.3 CPU-s and a test half a second on the
 * project's machines, and a whole run makes some 320 of them (docs/architecture.md, «Tests»).
 */

/** Databases this test file made from a template, by name: what a drop may give back to the pool. */
const copies = new Map<string, string>();

/** The URL of database `name` on the test server. */
function databaseUrl(name: string): string {
  const url = new URL(testInfra.databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const nameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * A fresh database on the test server; drop it with dropTestDatabase. Empty, or with `migrations` applied:
 * then taken from the pool of copies of the template that has them, or copied from that template.
 */
export async function createTestDatabase(prefix = 't', migrations?: Record<string, Migration>): Promise<string> {
  const name = uniqueName(prefix);
  if (!migrations) {
    await createDatabaseIfMissing(databaseUrl(name));
    return databaseUrl(name);
  }
  const template = await migratedTemplate(prefix, migrations);
  await withServer(testInfra.databaseUrl, async (client) => {
    if (!(await takePooled(client, template, name))) {
      await client.query(`create database "${name}" template "${template}"`);
    }
  });
  copies.set(name, template);
  return databaseUrl(name);
}

/** Drops a test database, or gives a copy of a template back to the pool when it can be made as new again. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = nameOf(url);
  const template = copies.get(name);
  copies.delete(name);
  await withServer(url, async (client) => {
    if (template && (await giveBack(client, name, template))) return;
    await client.query(`drop database if exists "${name}" with (force)`);
  });
}

/**
 * A name for exactly these migrations (their names and code, in order of name): what a migrated copy made
 * for tests is kept under, so a change to any migration makes a new one.
 */
export function migrationsVersion(migrations: Record<string, Migration>): string {
  const code = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations).sort(([a], [b]) => a.localeCompare(b))) {
    code.update(`${name}\n${migration.up.toString()}\n${migration.down?.toString() ?? ''}\n`);
  }
  return code.digest('hex').slice(0, 16);
}

/** `template_<prefix>_<version>` → `pooled_<prefix>_<version>_`: what the pool's copies of it are named with. */
const poolOf = (template: string) => `${template.replace(/^template_/, 'pooled_')}_`;

/**
 * The template database with exactly these migrations (their names and code make its name), made by the first
 * test file that asks, one process at a time; it stays for later runs and takes no connections (a copy needs none).
 * Its comment is the fingerprint of its schema, which a copy must still have to go back to the pool. Making it
 * drops the pooled copies of the same service's earlier templates: their migrations have changed.
 */
async function migratedTemplate(prefix: string, migrations: Record<string, Migration>): Promise<string> {
  const template = `template_${prefix}_${migrationsVersion(migrations)}`;
  await withServer(testInfra.databaseUrl, async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [template]);
    const found = await client.query<{ ready: boolean; fingerprint: string | null }>(
      `select datistemplate as ready, shobj_description(oid, 'pg_database') as fingerprint
         from pg_database where datname = $1`,
      [template],
    );
    if (found.rows[0]?.ready && found.rows[0].fingerprint) return;
    // One a crashed run left half made (or one made before templates had a fingerprint) is made again.
    if (found.rows[0]?.ready) await client.query(`alter database "${template}" with is_template false`);
    await client.query(`drop database if exists "${template}" with (force)`);
    const logger = createLogger({ name: 'test-template', level: 'silent' });
    const database = await openDatabase({
      service: prefix,
      url: databaseUrl(template),
      migrations,
      logger,
      poolSize: 1,
    });
    await database.close();
    const fingerprint = await withDatabase(template, schemaFingerprint);
    await client.query(`comment on database "${template}" is '${fingerprint}'`);
    await client.query(`alter database "${template}" with is_template true allow_connections false`);
    const stale = await client.query<{ datname: string }>(
      'select datname from pg_database where datname ~ $1 and not starts_with(datname, $2)',
      [`^pooled_${prefix}_[0-9a-f]{16}_`, poolOf(template)],
    );
    for (const { datname } of stale.rows) await client.query(`drop database if exists "${datname}" with (force)`);
  });
  return template;
}

/** Renames a pooled copy of `template` to `name`; false when the pool has none left. */
async function takePooled(client: pg.Client, template: string, name: string): Promise<boolean> {
  const pooled = await client.query<{ datname: string }>(
    'select datname from pg_database where starts_with(datname, $1) order by random()',
    [poolOf(template)],
  );
  for (const { datname } of pooled.rows) {
    try {
      await client.query(`alter database "${datname}" rename to "${name}"`);
      return true;
    } catch (err) {
      // Another test file took this one first.
      if ((err as { code?: string }).code !== '3D000') throw err;
    }
  }
  return false;
}

/**
 * Gives a copy back to the pool as new: its sessions are ended and it is renamed to a name nobody else
 * knows (so nothing writes to it meanwhile), emptied — every table but the migrations' own truncated,
 * triggers (such as the audit log's refusal) off for this session, every sequence restarted — and pooled
 * if its schema's fingerprint is still the template's. False (the caller drops it) otherwise.
 */
async function giveBack(client: pg.Client, name: string, template: string): Promise<boolean> {
  const emptying = `emptying_${randomBytes(8).toString('hex')}`;
  try {
    await renameWhenFree(client, name, emptying);
    const fingerprint = await withDatabase(emptying, async (db) => {
      await db.query('set session_replication_role = replica');
      await db.query(EMPTY);
      return schemaFingerprint(db);
    });
    const expected = await client.query<{ fingerprint: string | null }>(
      `select shobj_description(oid, 'pg_database') as fingerprint from pg_database where datname = $1`,
      [template],
    );
    if (fingerprint === expected.rows[0]?.fingerprint) {
      await renameWhenFree(client, emptying, `${poolOf(template)}${randomBytes(5).toString('hex')}`);
      return true;
    }
  } catch {
    // A step failed: a copy already renamed is dropped below, one never renamed by the caller under its name.
  }
  await client.query(`drop database if exists "${emptying}" with (force)`);
  return false;
}

/** Ends every session on `from` and renames it; a session ended a moment ago may take a few ms to go. */
async function renameWhenFree(client: pg.Client, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [from]);
    try {
      await client.query(`alter database "${from}" rename to "${to}"`);
      return;
    } catch (err) {
      // 55006: still being accessed by other users.
      if ((err as { code?: string }).code !== '55006' || attempt === 100) throw err;
      await sleep(10);
    }
  }
}

const EMPTY = `
do $$
declare
  tables text;
  sequence record;
begin
  select string_agg(format('%I.%I', schemaname, tablename), ', ') into tables from pg_tables
   where schemaname not in ('pg_catalog', 'information_schema') and tablename not like 'kysely_migration%';
  if tables is not null then
    execute 'truncate ' || tables || ' restart identity cascade';
  end if;
  for sequence in select schemaname, sequencename from pg_sequences loop
    execute format('alter sequence %I.%I restart', sequence.schemaname, sequence.sequencename);
  end loop;
end $$`;

/**
 * What a copy must still have to be as new: its relations, columns with types and defaults, constraints,
 * indexes, triggers (and whether they are on), functions, enum values, sequences' positions, applied
 * migrations and database settings — a test that changed any of them has its copy dropped, not pooled.
 */
async function schemaFingerprint(db: pg.Client): Promise<string> {
  const { rows } = await db.query<{ fingerprint: string }>(`
    with own as (
      select oid from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    )
    select md5(string_agg(item, E'\\n' order by item)) as fingerprint from (
      select format('relation %s %s %s', c.oid::regclass, c.relkind, c.relnatts) from pg_class c
       where c.relnamespace in (select oid from own)
      union all
      select format('column %s %s %s %s %s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod),
                    a.attnotnull, pg_get_expr(d.adbin, d.adrelid))
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where c.relnamespace in (select oid from own) and a.attnum > 0 and not a.attisdropped
      union all
      select format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint
       where connamespace in (select oid from own)
      union all
      select format('index %s', pg_get_indexdef(i.indexrelid)) from pg_index i join pg_class c on c.oid = i.indexrelid
       where c.relnamespace in (select oid from own)
      union all
      select format('trigger %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
      union all
      select format('function %s %s', p.oid::regprocedure, md5(p.prosrc)) from pg_proc p
       where p.pronamespace in (select oid from own)
      union all
      select format('enum %s %s', enumtypid::regtype, enumlabel) from pg_enum
      union all
      select format('sequence %s.%s %s', schemaname, sequencename, last_value) from pg_sequences
      union all
      select format('migration %s', name) from kysely_migration
      union all
      select format('setting %s', unnest(setconfig)) from pg_db_role_setting
       where setdatabase = (select oid from pg_database where datname = current_database())
    ) as items (item)`);
  return rows[0]!.fingerprint;
}

/** Runs `work` on a connection of its own to the maintenance database of `url`'s server (a session's locks end with it). */
async function withServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  return withClient(maintenance.toString(), work);
}

const withDatabase = <T>(name: string, work: (client: pg.Client) => Promise<T>) => withClient(databaseUrl(name), work);

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return work(client).finally(() => client.end());
}
