import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import {
  type AuditActor,
  auditLogMigration,
  createLogger,
  listAudit,
  openDatabase,
  recordAudit,
  SYSTEM_ACTOR,
  verifyAuditChain,
} from '../src';
import { createTestDatabase, dropTestDatabase, pgliteDataDir } from '../src/testing';

const logger = createLogger({ name: 'audit-test', level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function postgres() {
  const url = await createTestDatabase('kitaudit');
  cleanups.push(() => dropTestDatabase(url));
  return { url };
}

async function pglite() {
  const dataDir = await pgliteDataDir('kit-audit');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { dataDir };
}

const admin: AuditActor = { id: 7, email: 'admin@example.com', role: 'admin', ip: '10.0.0.1', userAgent: 'Firefox' };

describe.each([
  ['PostgreSQL', postgres],
  ['PGlite', pglite],
])('the audit log on %s', (_name, target) => {
  test('entries chain; the application cannot change or delete one; an entry edited by hand is named by the verification', async () => {
    const where = await target();
    const database = await openDatabase({
      service: 'audit',
      migrations: { '0001_audit_log': auditLogMigration },
      logger,
      ...where,
    });
    cleanups.push(() => database.close());
    const { db } = database;
    await db.transaction().execute(async (trx) => {
      await recordAudit(trx, admin, {
        action: 'user.deposit',
        target: { type: 'user', id: 5, userId: 5 },
        before: { credits: 0 },
        after: { credits: 500 },
        reason: 'Компенсация',
        idempotencyKey: 'k-1',
      });
    });
    await db.transaction().execute((trx) =>
      recordAudit(trx, SYSTEM_ACTOR, {
        action: 'payment.succeeded',
        target: { type: 'payment', id: 'p-9', userId: 5 },
      }),
    );
    await db
      .transaction()
      .execute((trx) =>
        recordAudit(trx, admin, { action: 'setting.update', target: { type: 'setting', id: 'credit_markup' } }),
      );

    expect(await verifyAuditChain(db)).toEqual({ entries: 3, broken: null });
    const { entries, total } = await listAudit(db, { limit: 10 });
    expect(total).toBe(3);
    const [newest, , oldest] = entries;
    expect(newest).toMatchObject({ action: 'setting.update', actor: { id: 7, role: 'admin' } });
    expect(oldest).toMatchObject({
      action: 'user.deposit',
      actor: { id: 7, email: 'admin@example.com', role: 'admin' },
      ip: '10.0.0.1',
      user_agent: 'Firefox',
      target: { type: 'user', id: '5', user_id: 5 },
      before: { credits: 0 },
      after: { credits: 500 },
      reason: 'Компенсация',
      idempotency_key: 'k-1',
      outcome: 'succeeded',
    });
    expect((await listAudit(db, { user_id: 5, limit: 10 })).total).toBe(2);
    expect((await listAudit(db, { admin_id: 7, action: 'user.deposit', limit: 10 })).total).toBe(1);

    for (const statement of [
      sql`update audit_log set reason = 'другое' where action = 'user.deposit'`,
      sql`delete from audit_log`,
      sql`truncate audit_log`,
    ]) {
      await expect(statement.execute(db)).rejects.toThrow(/append-only/);
    }

    // Someone with the rights to switch the trigger off edits the first entry by hand.
    await sql`alter table audit_log disable trigger audit_log_no_change`.execute(db);
    await sql`update audit_log set after = '{"credits": 5000}'::jsonb where action = 'user.deposit'`.execute(db);
    await sql`alter table audit_log enable trigger audit_log_no_change`.execute(db);

    expect(await verifyAuditChain(db)).toEqual({
      entries: 1,
      broken: { id: oldest!.id, at: oldest!.at, action: 'user.deposit' },
    });
  }, 60_000);
});
