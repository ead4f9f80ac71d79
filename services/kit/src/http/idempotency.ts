import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Migration, type QueryExecutorProvider } from 'kysely';
import { AppError, badRequest, conflict } from '../errors';
import { type AuditActor, type AuditRecord, recordAudit, stableJson } from '../db/audit-log';
import type { KeyValue } from '../kv';

/** The table of kept answers, as Kysely sees it. */
export interface IdempotencyTables {
  idempotent_requests: {
    /** Who sent the key (the token's subject): one admin's keys never meet another's. */
    actor: string;
    idempotency_key: string;
    /** The route, its parameters and its body, hashed: a key sent again with another request is refused. */
    fingerprint: string;
    status: number;
    /** The answer as it was sent (JSON), null for an answer without a body. */
    answer: unknown;
    created_at: Date;
  };
}

/** How long a key's answer is kept: a retry within a day gets it again. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** How long a request holds its key while it runs; a process that died mid-request frees it after this. */
const RUNNING_TTL_SEC = 120;

/**
 * The kept answers' table; each service that takes keys adds it to its own migrations under its next
 * number (docs/money.md, Admin actions). Plain SQL types only, so PostgreSQL and PGlite run it alike.
 */
export const idempotencyMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('idempotent_requests')
      .addColumn('actor', 'text', (col) => col.notNull())
      .addColumn('idempotency_key', 'text', (col) => col.notNull())
      .addColumn('fingerprint', 'text', (col) => col.notNull())
      .addColumn('status', 'integer', (col) => col.notNull())
      .addColumn('answer', 'jsonb')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('idempotent_requests_pkey', ['actor', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('idempotent_requests_created').on('idempotent_requests').column('created_at').execute();
  },
  async down(db) {
    await db.schema.dropTable('idempotent_requests').execute();
  },
};

/**
 * What a use case of an admin action on money, access or a price (an `idempotent` route) gets: the key's
 * action id, where to keep its answer, and how to write its audit entry — both in the change's transaction.
 */
export interface AdminAction {
  /** The client's key, or undefined: a request without one is applied as it comes. */
  key: string | undefined;
  /**
   * A UUID that a retry with the same key gets again (a fresh one without a key): what the action
   * passes on — another service's action id, a provider's Idempotence-Key — so they apply it once too.
   */
  actionId: string;
  /**
   * Keeps `answer` (the route's body) with the key inside `trx`, the transaction that makes the change:
   * the change and its kept answer commit together or not at all. Nothing without a key. Answers `answer`.
   */
  keep<const A>(trx: QueryExecutorProvider, answer: A): Promise<A>;
  /**
   * Writes the action's audit entry inside `trx`, the transaction that makes the change: the admin of the
   * request (id, e-mail, role, address, browser) and its key, with what `record` says was done.
   */
  record(trx: QueryExecutorProvider, record: AuditRecord): Promise<void>;
  /** Both, at the end of the change's transaction: the entry `record` says, and `answer` kept. Answers `answer`. */
  finish<const A>(trx: QueryExecutorProvider, record: AuditRecord, answer: A): Promise<A>;
}

export interface IdempotentCall {
  /** Whose keys these are (the token's subject). */
  actor: string;
  /** Who acts, as the audit log names them. */
  auditActor: AuditActor;
  key: string | undefined;
  /** The route id, its parameters and its body: what makes two requests "the same". */
  request: unknown;
  status: number;
  /** The answer as the route sends it (its response schema applied). */
  serialize(answer: unknown): unknown;
}

export interface IdempotencyStore {
  /**
   * Runs `work` once per key: the first request with a key runs it and keeps its answer; the same key
   * with the same request answers what was kept (nothing runs), with another request 422, and while
   * the first still runs 409. A refusal (an error) keeps nothing, so the key can be tried again.
   */
  run<T>(call: IdempotentCall, work: (action: AdminAction) => Promise<T>): Promise<T | Replayed>;
}

export const idempotencyErrors = {
  badKey: () => badRequest('Заголовок Idempotency-Key: от 1 до 255 видимых символов', 'invalid_idempotency_key'),
  running: () => conflict('Это действие ещё выполняется, подождите и повторите', 'idempotency_key_in_use'),
  reused: () => new AppError('Ключ Idempotency-Key уже использован с другим запросом', 'idempotency_key_reused', 422),
};

/** The answer kept for a key, sent again as it was (the store's result when `work` did not run). */
export class Replayed {
  constructor(
    readonly status: number,
    readonly answer: unknown,
  ) {}
}

/** The store of a service's database; its running keys are held in `kv`, so every replica sees them. */
export function idempotencyStore<DB>(deps: { db: Kysely<DB>; kv: KeyValue; service: string }): IdempotencyStore {
  const db = deps.db as unknown as Kysely<IdempotencyTables>;
  return {
    async run(call, work) {
      if (call.key === undefined) return work(unkeyed(call.auditActor));
      const key = call.key;
      if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw idempotencyErrors.badKey();
      const fingerprint = hashOf(stableJson(call.request));
      const lock = `idempotency:${deps.service}:${hashOf(`${call.actor}\n${key}`)}`;
      const owner = randomUUID();
      if (!(await deps.kv.acquire(lock, owner, RUNNING_TTL_SEC))) throw idempotencyErrors.running();
      try {
        const kept = await keptAnswer(db, call.actor, key);
        if (kept) {
          if (kept.fingerprint !== fingerprint) throw idempotencyErrors.reused();
          return new Replayed(kept.status, kept.answer);
        }
        let stored = false;
        const action = adminAction({
          key,
          actionId: actionIdOf(call.actor, key),
          async keep(trx, answer) {
            const json = JSON.stringify(call.serialize(answer) ?? null);
            await sql`insert into idempotent_requests (actor, idempotency_key, fingerprint, status, answer)
              values (${call.actor}, ${key}, ${fingerprint}, ${call.status}, ${json}::jsonb)`.execute(trx);
            stored = true;
            return answer;
          },
          record: (trx, record) => recordAudit(trx, call.auditActor, { ...record, idempotencyKey: key }),
        });
        const result = await work(action);
        // A use case that changed nothing in a transaction of its own keeps its answer here.
        if (!stored) await action.keep(db, result);
        return result;
      } finally {
        await deps.kv.release(lock, owner);
      }
    },
  };
}

/** An `AdminAction` for a request without a key: nothing is kept, the action id is new. */
function unkeyed(actor: AuditActor): AdminAction {
  return adminAction({
    key: undefined,
    actionId: randomUUID(),
    keep: async (_trx, answer) => answer,
    record: (trx, record) => recordAudit(trx, actor, record),
  });
}

function adminAction(parts: Omit<AdminAction, 'finish'>): AdminAction {
  return {
    ...parts,
    async finish(trx, record, answer) {
      await parts.record(trx, record);
      return parts.keep(trx, answer);
    },
  };
}

async function keptAnswer(db: Kysely<IdempotencyTables>, actor: string, key: string) {
  const since = new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000);
  await db.deleteFrom('idempotent_requests').where('created_at', '<', since).execute();
  return db
    .selectFrom('idempotent_requests')
    .select(['fingerprint', 'status', 'answer'])
    .where('actor', '=', actor)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** A UUID (version 4 layout) made from the actor and the key, the same for every retry. */
function actionIdOf(actor: string, key: string): string {
  const hex = hashOf(`action\n${actor}\n${key}`).slice(0, 32).split('');
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
