import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AdminAuditResponse, AuditVerifyResponse, CreatePaymentResponse } from '@gpt/contracts';
import { callApi, setWelcomeCredits, startTestStack, type TestStack } from '@gpt/deploy/testing';
import type { Bus, EventSchemas } from '@gpt/kit';
import { sandboxDecisionCall, uniqueName } from '@gpt/kit/testing';
import { sql, type Kysely } from 'kysely';

/**
 * «Журнал действий» on the whole product: each service writes its entries in the transaction of the change;
 * metrics merges them (`/api/admin/audit`), verifies their chains and exports them.
 */
let stack: TestStack;
let adminToken: string;
let adminId: number;
const BROWSER = 'AuditTest/1.0';

beforeAll(async () => {
  stack = await startTestStack({ RATE_LIMIT_REGISTER_POINTS: '1000' });
  await setWelcomeCredits(stack, 0);
  const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  adminToken = res.body.token;
  adminId = res.body.user.id;
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, { ...options, headers: { 'User-Agent': BROWSER, ...options?.headers } });
const serviceOf = (name: string) => stack.services.find((s) => s.name === name)!;
const dbOf = (name: string) => serviceOf(name).deps.db as Kysely<unknown>;
const busOf = (name: string) => serviceOf(name).deps.bus as Bus<unknown, EventSchemas>;

const journal = (query: Record<string, string | number>) =>
  api<AdminAuditResponse>('GET', `/api/admin/audit?${new URLSearchParams(query as Record<string, string>)}`, {
    token: adminToken,
  });

async function registered(): Promise<{ id: number; token: string }> {
  const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/register', {
    body: { email: `${uniqueName('audit')}@example.com`, password: 'password1' },
  });
  expect(res.status).toBe(201);
  const id = res.body.user.id;
  await busOf('auth').waitFor(
    'acked',
    (e) => e.type === 'credits.changed' && (e.data as { user_id: number }).user_id === id,
  );
  return { id, token: res.body.token };
}

const deposit = (userId: number, body: Record<string, unknown>, key = randomUUID()) =>
  api('PUT', `/api/admin/users/${userId}`, { token: adminToken, body, headers: { 'Idempotency-Key': key } });

describe('GET /api/admin/audit', () => {
  test('when an admin deposits with a reason, then billing has one entry with who, from where, why, the key and the balance before and after', async () => {
    const user = await registered();
    const key = randomUUID();

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => deposit(user.id, { depositAmount: 300, reason: 'Компенсация сбоя' }, key)),
    );

    expect(answers.some((res) => res.status === 200)).toBe(true);
    const { body } = await journal({ user_id: user.id });
    expect(body.total).toBe(1);
    expect(body.entries[0]).toMatchObject({
      service: 'billing',
      actor: { id: adminId, email: stack.admin.email, role: 'admin' },
      ip: expect.stringMatching(/127\.0\.0\.1/),
      user_agent: BROWSER,
      action: 'user.deposit',
      target: { type: 'user', id: String(user.id), user_id: user.id },
      before: { credits: 0 },
      after: { credits: 300 },
      reason: 'Компенсация сбоя',
      idempotency_key: key,
      outcome: 'succeeded',
    });
  }, 60_000);

  test('entries of every service come merged, newest first, and filter by admin, action and date', async () => {
    const key = randomUUID();
    const put = await api('PUT', '/api/admin/sys_vals/credit_markup', {
      token: adminToken,
      body: { value: '2.0' },
      headers: { 'Idempotency-Key': key },
    });
    expect(put.status).toBe(200);

    const today = new Date().toISOString().slice(0, 10);
    const { body } = await journal({ admin_id: adminId, from: today, to: today, limit: 100 });

    expect(body.entries.map((entry) => entry.service)).toEqual(
      expect.arrayContaining(['auth', 'billing', 'chat-history']),
    );
    const times = body.entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.entries.find((entry) => entry.action === 'setting.update')).toMatchObject({
      service: 'chat-history',
      target: { type: 'setting', id: 'credit_markup' },
      before: { value: expect.any(String) },
      after: { value: '2.0' },
      idempotency_key: key,
    });
    expect(body.entries.find((entry) => entry.action === 'admin.sign_in')).toMatchObject({
      service: 'auth',
      actor: { id: adminId, email: stack.admin.email },
      user_agent: BROWSER,
      outcome: 'succeeded',
    });
    const signIns = await journal({ action: 'admin.sign_in', limit: 100 });
    expect(signIns.body.entries.every((entry) => entry.action === 'admin.sign_in')).toBe(true);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await journal({ to: yesterday })).body.total).toBe(0);
  }, 60_000);

  test('when a card payment is confirmed by the provider, then it is an entry of the system', async () => {
    const user = await registered();
    const created = await api<CreatePaymentResponse>('POST', '/api/billing/payments', {
      token: user.token,
      body: { amount: '100.00' },
    });
    expect(created.status).toBe(201);
    const credited = busOf('billing').waitFor(
      'acked',
      (e) =>
        e.type === 'payment.succeeded' && (e.data as { payment_id: string }).payment_id === created.body.payment_id,
      20_000,
    );
    const decision = sandboxDecisionCall(created.body.confirmation_url!, 'succeeded');
    await api('POST', decision.path, { body: decision.body });
    await credited;

    const { body } = await journal({ user_id: user.id, action: 'payment.succeeded' });
    expect(body.entries).toEqual([
      expect.objectContaining({
        service: 'billing',
        actor: { id: null, email: null, role: 'system' },
        after: expect.objectContaining({ amount: '100.00', credits: 10_000 }),
      }),
    ]);
  }, 60_000);

  test('a plain user gets 403, and a bad date 400 with the Russian message', async () => {
    const user = await registered();
    expect((await api('GET', '/api/admin/audit', { token: user.token })).status).toBe(403);
    const bad = await journal({ from: '27.11.2026' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Дата «с»: ГГГГ-ММ-ДД');
  }, 30_000);
});

describe('GET /api/admin/audit/export', () => {
  test('the filtered entries as CSV for Russian Excel, with the reason and the admin', async () => {
    const user = await registered();
    await deposit(user.id, { depositAmount: 5, reason: '=HYPERLINK("x")' });

    const res = await api<string>('GET', `/api/admin/audit/export?user_id=${user.id}`, { token: adminToken });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [head, row, end] = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(head).toContain('Время (МСК);Сервис;Запись;ID администратора;E-mail');
    expect(row).toContain(';Пополнение баланса;user;');
    expect(row).toContain(stack.admin.email);
    // A reason that would be a formula is kept as text.
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(end).toBe('');
  }, 30_000);
});

describe('GET /api/admin/audit/verify', () => {
  test('when every chain is whole, then ok; when an entry is edited by hand, then the first broken entry is named', async () => {
    const user = await registered();
    await deposit(user.id, { depositAmount: 70, reason: 'Проверка' });
    const before = await api<AuditVerifyResponse>('GET', '/api/admin/audit/verify', { token: adminToken });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ ok: true, broken: null });
    expect(before.body.services.map((state) => state.service).sort()).toEqual(['auth', 'billing', 'chat-history']);

    const { body } = await journal({ user_id: user.id });
    const edited = body.entries[0]!;
    // Someone with the rights to switch the trigger off edits billing's entry by hand.
    const billing = dbOf('billing');
    await sql`alter table audit_log disable trigger audit_log_no_change`.execute(billing);
    await sql`update audit_log set after = '{"credits": 7000}'::jsonb where id = ${edited.id}`.execute(billing);
    await sql`alter table audit_log enable trigger audit_log_no_change`.execute(billing);

    const after = await api<AuditVerifyResponse>('GET', '/api/admin/audit/verify', { token: adminToken });
    expect(after.body).toMatchObject({
      ok: false,
      broken: { service: 'billing', id: edited.id, at: edited.at, action: 'user.deposit' },
    });
  }, 60_000);

  test("the application's own connection can neither change nor delete an entry", async () => {
    for (const statement of [sql`update audit_log set reason = 'другое'`, sql`delete from audit_log`]) {
      await expect(statement.execute(dbOf('auth'))).rejects.toThrow(/append-only/);
    }
  });
});
