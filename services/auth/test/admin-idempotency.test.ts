import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { callApi, setWelcomeCredits, startTestStack, type TestStack } from '@gpt/deploy/testing';
import type { Bus, EventSchemas } from '@gpt/kit';
import { uniqueName } from '@gpt/kit/testing';
import { sql, type Kysely } from 'kysely';

/**
 * Admin actions with an Idempotency-Key through the gateway, on the whole product: auth applies the
 * deposit through billing, whose ledger shows how many times it was applied.
 */
let stack: TestStack;
let adminToken: string;
let authBus: Bus<unknown, EventSchemas>;
let billingDb: Kysely<unknown>;

beforeAll(async () => {
  // A billing that has not answered in 1.5 s is «Биллинг недоступен» (503) to the admin.
  stack = await startTestStack({ BILLING_TIMEOUT_MS: '1500', RATE_LIMIT_REGISTER_POINTS: '1000' });
  await setWelcomeCredits(stack, 0);
  authBus = stack.services.find((s) => s.name === 'auth')!.deps.bus;
  billingDb = stack.services.find((s) => s.name === 'billing')!.deps.db as Kysely<unknown>;
  const res = await api<{ token: string }>('POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  adminToken = res.body.token;
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

async function registered(): Promise<number> {
  const res = await api<{ user: { id: number } }>('POST', '/api/auth/register', {
    body: { email: `${uniqueName('idem')}@example.com`, password: 'password1' },
  });
  expect(res.status).toBe(201);
  const id = res.body.user.id;
  await authBus.waitFor('acked', (e) => e.type === 'credits.changed' && (e.data as { user_id: number }).user_id === id);
  return id;
}

const deposit = (userId: number, amount: number, key: string) =>
  api('PUT', `/api/admin/users/${userId}`, {
    token: adminToken,
    body: { depositAmount: amount },
    headers: { 'Idempotency-Key': key },
  });

/** What billing's ledger holds of admin deposits for the user. */
async function deposits(userId: number): Promise<number[]> {
  const { rows } = await sql<{ amount: string }>`
    select amount from ledger_entries where user_id = ${userId} and reason = 'admin_deposit' order by id`.execute(
    billingDb,
  );
  return rows.map((row) => Number(row.amount));
}

describe('PUT /api/admin/users/{id} with an Idempotency-Key', () => {
  test('when 10 identical deposits with one key arrive at once, then the credits are added once and every answer is the first one or 409', async () => {
    const userId = await registered();
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 10 }, () => deposit(userId, 250, key)));

    expect(await deposits(userId)).toEqual([250]);
    const statuses = answers.map((res) => res.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    const ok = answers.filter((res) => res.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const res of ok) expect(res.body).toMatchObject({ success: true, user: { id: userId, credits: 250 } });
    for (const res of answers.filter((res) => res.status === 409)) {
      expect(res.body).toEqual({
        error: 'Это действие ещё выполняется, подождите и повторите',
        code: 'idempotency_key_in_use',
      });
    }

    // Once the first is done, the key answers what it answered, and nothing is added.
    const again = await deposit(userId, 250, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(ok[0]!.body);
    expect(await deposits(userId)).toEqual([250]);
  }, 30_000);

  test('when the key comes again with another body, then 422 and nothing changes', async () => {
    const userId = await registered();
    const key = randomUUID();
    expect((await deposit(userId, 100, key)).status).toBe(200);

    const other = await deposit(userId, 900, key);

    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: 'Ключ Idempotency-Key уже использован с другим запросом',
      code: 'idempotency_key_reused',
    });
    expect(await deposits(userId)).toEqual([100]);
  }, 30_000);

  test('when the admin sees 503 for a deposit billing went on to apply and presses again with the key, then it is stored once', async () => {
    const userId = await registered();
    const key = randomUUID();
    // Another transaction holds the user's balance row, so billing's deposit waits past auth's timeout.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = billingDb.transaction().execute(async (trx) => {
      await sql`select 1 from balances where user_id = ${userId} for update`.execute(trx);
      locked();
      await released;
    });
    await isLocked;

    const first = await deposit(userId, 300, key);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    release();
    await holder;
    // Billing went on once the row was free: the deposit is in, though the admin was told it failed.
    for (let i = 0; i < 50 && (await deposits(userId)).length === 0; i++) await sleep(100);
    expect(await deposits(userId)).toEqual([300]);

    const retry = await deposit(userId, 300, key);

    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ success: true, user: { id: userId, credits: 300 } });
    expect(await deposits(userId)).toEqual([300]);
  }, 30_000);

  test('without a key, a deposit is applied as it comes (scripts of the admin API)', async () => {
    const userId = await registered();
    for (let i = 0; i < 2; i++) {
      const res = await api('PUT', `/api/admin/users/${userId}`, { token: adminToken, body: { depositAmount: 40 } });
      expect(res.status).toBe(200);
    }
    expect(await deposits(userId)).toEqual([40, 40]);
  }, 30_000);
});

describe('other admin actions with an Idempotency-Key', () => {
  test('when a promo code is created twice with one key, then one code exists and the second answer is the first', async () => {
    const key = randomUUID();
    const code = uniqueName('IDEM')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 20);
    const body = { code, kind: 'credits', credits: 50, max_uses: 3 };
    const create = () =>
      api('POST', '/api/admin/promo-codes', { token: adminToken, body, headers: { 'Idempotency-Key': key } });

    const first = await create();
    const second = await create();

    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const other = await api('POST', '/api/admin/promo-codes', {
      token: adminToken,
      body: { ...body, credits: 60 },
      headers: { 'Idempotency-Key': key },
    });
    expect(other.status).toBe(422);
  }, 30_000);

  test('when a setting is changed with a key and then the key is sent with another value, then 422 and the first value stays', async () => {
    const key = randomUUID();
    const put = (value: string) =>
      api('PUT', '/api/admin/sys_vals/credit_markup', {
        token: adminToken,
        body: { value },
        headers: { 'Idempotency-Key': key },
      });
    expect((await put('2.0')).status).toBe(200);
    expect((await put('3.0')).status).toBe(422);
    const list = await api<{ data: { key: string; value: string }[] }>('GET', '/api/admin/sys_vals?limit=100', {
      token: adminToken,
    });
    expect(list.body.data.find((row) => row.key === 'credit_markup')?.value).toBe('2.0');
  }, 30_000);

  test('when the key is not 1 to 255 visible characters, then 400 with the Russian message', async () => {
    const res = await api('PUT', '/api/admin/sys_vals/credit_markup', {
      token: adminToken,
      body: { value: '2.0' },
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Заголовок Idempotency-Key: от 1 до 255 видимых символов',
      code: 'invalid_idempotency_key',
    });
  });
});
