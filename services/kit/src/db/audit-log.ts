import { createHash } from 'node:crypto';
import type { InternalAuditAnswer, InternalAuditChain, InternalAuditQuery } from '@gpt/contracts';
import { type Kysely, type Migration, type QueryExecutorProvider, sql } from 'kysely';

/**
 * The audit log of a service (docs/money.md, The audit log): one entry per admin action on money, access or
 * a price, per admin sign-in and per money event of the system, written in the transaction of the change.
 * Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE, on PostgreSQL and PGlite alike) and
 * hash-chained: each entry's hash covers its fields and the previous entry's hash, so an entry edited by
 * hand breaks the chain at that entry.
 */
export interface AuditTables {
  audit_log: {
    id: string;
    at: Date;
    actor_id: number | null;
    actor_email: string | null;
    actor_role: string;
    ip: string | null;
    user_agent: string | null;
    action: string;
    target_type: string;
    target_id: string;
    target_user_id: number | null;
    before: unknown;
    after: unknown;
    reason: string | null;
    idempotency_key: string | null;
    outcome: string;
    prev_hash: string;
    hash: string;
  };
}

/** Who acted: an admin (from the request) or the system itself (a provider's notification, the bot). */
export interface AuditActor {
  id: number | null;
  email: string | null;
  role: 'admin' | 'system';
  ip: string | null;
  userAgent: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { id: null, email: null, role: 'system', ip: null, userAgent: null };

/** What one entry says besides who acted. */
export interface AuditRecord {
  /** What was done, `<thing>.<verb>`: `user.deposit`, `payment.refund`, `setting.update`, `admin.sign_in`. */
  action: string;
  /** What it was done to: a user, a payment, a promo code, a tariff, a model, a setting. */
  target: { type: string; id: string | number; userId?: number | null };
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  idempotencyKey?: string | null;
  /** `succeeded` unless said otherwise (a refund `started`, a provider's refusal `refused`). */
  outcome?: string;
}

/** The table and its append-only trigger; each service with an audit log adds it to its migrations. */
export const auditLogMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'bigserial', (col) => col.primaryKey())
      .addColumn('at', 'timestamptz', (col) => col.notNull())
      .addColumn('actor_id', 'integer')
      .addColumn('actor_email', 'text')
      .addColumn('actor_role', 'text', (col) => col.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('target_type', 'text', (col) => col.notNull())
      .addColumn('target_id', 'text', (col) => col.notNull())
      .addColumn('target_user_id', 'integer')
      .addColumn('before', 'jsonb')
      .addColumn('after', 'jsonb')
      .addColumn('reason', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('outcome', 'text', (col) => col.notNull())
      .addColumn('prev_hash', 'text', (col) => col.notNull())
      .addColumn('hash', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  },
  async down(db) {
    await db.schema.dropTable('audit_log').execute();
    await sql`drop function audit_log_append_only()`.execute(db);
  },
};

/** The hash of the first entry's "previous entry". */
const GENESIS = '0'.repeat(64);
/** One writer at a time extends the chain (per database; held until the transaction ends). */
const CHAIN_LOCK = 4_200_402;

/**
 * Appends an entry inside `trx`, the transaction of the change it records: the chain's lock is held until
 * that transaction ends, so concurrent writers extend the chain one after another.
 */
export async function recordAudit(trx: QueryExecutorProvider, actor: AuditActor, record: AuditRecord): Promise<void> {
  await sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`.execute(trx);
  const last = await sql<{ hash: string }>`select hash from audit_log order by id desc limit 1`.execute(trx);
  const prevHash = last.rows[0]?.hash ?? GENESIS;
  const fields = {
    at: new Date().toISOString(),
    actor_id: actor.id,
    actor_email: actor.email,
    actor_role: actor.role,
    ip: actor.ip,
    user_agent: actor.userAgent,
    action: record.action,
    target_type: record.target.type,
    target_id: String(record.target.id),
    target_user_id: record.target.userId ?? null,
    before: record.before ?? null,
    after: record.after ?? null,
    reason: record.reason ?? null,
    idempotency_key: record.idempotencyKey ?? null,
    outcome: record.outcome ?? 'succeeded',
  };
  const hash = entryHash(prevHash, fields);
  await sql`insert into audit_log (at, actor_id, actor_email, actor_role, ip, user_agent, action, target_type,
      target_id, target_user_id, before, after, reason, idempotency_key, outcome, prev_hash, hash)
    values (${fields.at}, ${fields.actor_id}, ${fields.actor_email}, ${fields.actor_role}, ${fields.ip},
      ${fields.user_agent}, ${fields.action}, ${fields.target_type}, ${fields.target_id}, ${fields.target_user_id},
      ${JSON.stringify(fields.before)}::jsonb, ${JSON.stringify(fields.after)}::jsonb, ${fields.reason},
      ${fields.idempotency_key}, ${fields.outcome}, ${prevHash}, ${hash})`.execute(trx);
}

type HashedFields = Omit<AuditTables['audit_log'], 'id' | 'prev_hash' | 'hash' | 'at'> & { at: string };

function entryHash(prevHash: string, fields: HashedFields): string {
  return createHash('sha256')
    .update(`${prevHash}\n${stableJson(fields)}`)
    .digest('hex');
}

/** The newest entries that match `query` (at most `query.limit`), newest first, and how many match. */
export async function listAudit<DB>(db: Kysely<DB>, query: InternalAuditQuery): Promise<InternalAuditAnswer> {
  const log = db as unknown as Kysely<AuditTables>;
  const matching = () => {
    let select = log.selectFrom('audit_log');
    if (query.admin_id !== undefined) select = select.where('actor_id', '=', query.admin_id);
    if (query.user_id !== undefined) select = select.where('target_user_id', '=', query.user_id);
    if (query.action !== undefined) select = select.where('action', '=', query.action);
    if (query.from !== undefined) select = select.where('at', '>=', new Date(`${query.from}T00:00:00Z`));
    if (query.to !== undefined) select = select.where('at', '<', nextDay(query.to));
    return select;
  };
  const [rows, count] = await Promise.all([
    matching().selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit).execute(),
    matching()
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  const entries = rows.map((row) => ({
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    actor: { id: row.actor_id, email: row.actor_email, role: row.actor_role },
    ip: row.ip,
    user_agent: row.user_agent,
    action: row.action,
    target: { type: row.target_type, id: row.target_id, user_id: row.target_user_id },
    before: row.before,
    after: row.after,
    reason: row.reason,
    idempotency_key: row.idempotency_key,
    outcome: row.outcome,
  }));
  return { entries, total: Number(count.total) };
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);

const VERIFY_BATCH = 500;

/** Walks the chain from the first entry and names the first one whose hash does not follow. */
export async function verifyAuditChain<DB>(db: Kysely<DB>): Promise<InternalAuditChain> {
  const log = db as unknown as Kysely<AuditTables>;
  let prevHash = GENESIS;
  let after = '0';
  let entries = 0;
  for (;;) {
    const rows = await log
      .selectFrom('audit_log')
      .selectAll()
      .where(sql<boolean>`id > ${after}::bigint`)
      .orderBy('id')
      .limit(VERIFY_BATCH)
      .execute();
    for (const row of rows) {
      entries++;
      const { id, prev_hash, hash, at, ...rest } = row;
      const expected = entryHash(prevHash, { ...rest, at: new Date(at).toISOString() });
      if (prev_hash !== prevHash || hash !== expected) {
        return { entries, broken: { id: Number(id), at: new Date(at).toISOString(), action: row.action } };
      }
      prevHash = hash;
      after = String(id);
    }
    if (rows.length < VERIFY_BATCH) return { entries, broken: null };
  }
}

/** JSON with object keys sorted, so a value read back from jsonb hashes as it did when written. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, item]) => `${JSON.stringify(k)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
