import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ADMIN_USERS_SORT_FIELDS, type AdminUserRow } from '@gpt/contracts';
import { uniqueName } from '@gpt/kit/testing';
import {
  type AuthHarness,
  PREMIUM_TARIFF,
  reportBalance,
  reportMessage,
  type Session,
  startAuth,
} from './support/auth-harness';

let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.stop());

type List = { users: AdminUserRow[]; total: number };
const list = (query: Record<string, string | number>, token = h.admin.token) =>
  h.api<List>('GET', `/api/admin/users?${new URLSearchParams(query as Record<string, string>).toString()}`, {
    token,
  });
const edit = (id: number, body: Record<string, unknown>, token = h.admin.token) =>
  h.api<{ success?: true; user: AdminUserRow; error?: string; code?: string }>('PUT', `/api/admin/users/${id}`, {
    token,
    body,
  });
const remove = (id: number, token = h.admin.token) => h.api('DELETE', `/api/admin/users/${id}`, { token });

describe('admin access', () => {
  test('a plain user gets 403 on every admin users call, and no token gets 401', async () => {
    const user = await h.buildUser();
    const calls = [
      () => h.api('GET', '/api/admin/users', { token: user.token }),
      () => h.api('GET', '/api/admin/utm/stats', { token: user.token }),
      () => edit(user.id, { role: 'admin' }, user.token),
      () => remove(user.id, user.token),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Недостаточно прав', code: 'forbidden' });
    }
    expect((await h.api('GET', '/api/admin/users')).status).toBe(401);
  });
});

describe('GET /api/admin/users', () => {
  const marker = uniqueName('utm');
  const group: Record<'web1' | 'web2' | 'tg1' | 'tg2', number> = { web1: 0, web2: 0, tg1: 0, tg2: 0 };
  const suffix = marker.slice(-6);

  beforeAll(async () => {
    group.web1 = (await h.buildUser({ email: `alpha${suffix}@example.com`, utm_source: marker })).id;
    group.web2 = (await h.buildUser({ email: `bravo${suffix}@example.com`, utm_source: marker })).id;
    group.tg1 = (
      await h.buildTelegramUser({
        username: `charlie${suffix}`,
        first_name: 'Anna',
        last_name: 'Zed',
        utm_source: marker,
      })
    ).id;
    group.tg2 = (
      await h.buildTelegramUser({
        username: `delta${suffix}`,
        first_name: 'Boris',
        last_name: 'Young',
        utm_source: marker,
      })
    ).id;
    await reportBalance(h, group.web1, { credits: 100, tariff: PREMIUM_TARIFF, money_deposited: '350.00', version: 1 });
    await reportBalance(h, group.web2, { credits: 50, version: 1 });
    await reportBalance(h, group.tg1, { credits: 300, money_deposited: '12.50', version: 1 });
    await reportMessage(h, group.web1, '0.500000');
    await reportMessage(h, group.web1, '0.250000');
    await reportMessage(h, group.tg2, '0.000150');
    expect((await edit(group.web2, { role: 'admin' })).status).toBe(200);
  });

  test('by default: id descending, 10 per page, rows with the docs/product.md, Data fields and the total', async () => {
    const res = await list({ utm_source: marker });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.users.map((u) => u.id)).toEqual([group.tg2, group.tg1, group.web2, group.web1]);
    expect(res.body.users.find((u) => u.id === group.web1)).toEqual({
      id: group.web1,
      email: `alpha${suffix}@example.com`,
      username: null,
      first_name: null,
      last_name: null,
      telegram_id: null,
      telegram_blocked_at: null,
      utm_source: marker,
      credits: 100,
      included_credits: 0,
      money_spent: '0.750000',
      money_deposited: '350.00',
      messages_count: 2,
      role: 'user',
      tariff_id: PREMIUM_TARIFF.id,
      tariff_name: 'Premium',
      referred_by: null,
      referrer: null,
      created_at: expect.any(String),
    });
    for (let i = 0; i < 7; i += 1) await h.buildTelegramUser();
    const all = await list({});
    expect(all.body.users).toHaveLength(10);
    expect(all.body.total).toBeGreaterThan(10);
  });

  test('pages: page 2 of 2 per page holds the 3rd and 4th rows', async () => {
    const res = await list({ utm_source: marker, page: 2, limit: 2 });
    expect(res.body).toMatchObject({ total: 4 });
    expect(res.body.users.map((u) => u.id)).toEqual([group.web2, group.web1]);
  });

  test.each([
    ['email', () => `ALPHA${suffix}`, () => [group.web1]],
    ['username', () => `Charlie${suffix}`.toUpperCase(), () => [group.tg1]],
    ['utm_source', () => marker.toUpperCase().slice(2), () => [group.tg2, group.tg1, group.web2, group.web1]],
  ])('the %s filter is a case-insensitive substring', async (field, value, expected) => {
    const res = await list({ [field]: value() });
    expect(res.body.users.map((u) => u.id)).toEqual(expected());
  });

  test('the tariff_id filter selects the users of that tariff', async () => {
    const res = await list({ utm_source: marker, tariff_id: PREMIUM_TARIFF.id });
    expect(res.body.users.map((u) => u.id)).toEqual([group.web1]);
  });

  test("utm_source 'organic' selects the users without a source", async () => {
    const organic = await h.buildUser();
    const res = await list({ utm_source: 'organic', email: organic.email });
    expect(res.body.users.map((u) => u.id)).toEqual([organic.id]);
    expect(res.body.users[0]!.utm_source).toBeNull();
  });

  test('pattern characters in a filter are taken literally', async () => {
    expect((await list({ email: `alph%${suffix}` })).body.total).toBe(0);
    expect((await list({ email: `alph_${suffix}` })).body.total).toBe(0);
    expect((await list({ email: `alpha${suffix}` })).body.total).toBe(1);
  });

  const compare = (field: string, x: unknown, y: unknown): number => {
    if (['money_spent', 'money_deposited'].includes(field)) return Number(x) - Number(y);
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
  };
  /** The order the server promises: the column (empty values last), then id in the same direction. */
  const expectedOrder = (rows: AdminUserRow[], field: string, direction: 1 | -1) =>
    [...rows]
      .sort((a, b) => {
        const x = (a as Record<string, unknown>)[field];
        const y = (b as Record<string, unknown>)[field];
        if (x === null && y !== null) return 1;
        if (y === null && x !== null) return -1;
        const byField = x === null ? 0 : compare(field, x, y);
        return byField !== 0 ? direction * byField : direction * (a.id - b.id);
      })
      .map((row) => row.id);

  test.each(ADMIN_USERS_SORT_FIELDS.flatMap((field) => [[field, 1] as const, [field, -1] as const]))(
    'sorting by %s with sortOrder %d orders the rows by that column',
    async (field, direction) => {
      const res = await list({ utm_source: marker, sortField: field, sortOrder: direction });
      expect(res.status).toBe(200);
      expect(res.body.users.map((u) => u.id)).toEqual(expectedOrder(res.body.users, field, direction));
    },
  );

  test('sorting by credits ascending gives the balances in order', async () => {
    const res = await list({ utm_source: marker, sortField: 'credits', sortOrder: 1 });
    expect(res.body.users.map((u) => u.credits)).toEqual([0, 50, 100, 300]);
  });

  test.each([
    [{ sortField: 'password_hash' }, 'Недопустимое поле сортировки'],
    [{ sortOrder: 'sideways' }, 'Порядок сортировки: 1 (по возрастанию) или -1 (по убыванию)'],
    [{ limit: 500 }, 'Размер страницы должен быть целым числом от 1 до 100'],
    [{ page: 0 }, 'Номер страницы должен быть целым числом не меньше 1'],
    [{ tariff_id: 'abc' }, 'Идентификатор должен быть целым положительным числом'],
  ])('when the query is %j, then 400 "%s"', async (query, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message });
  });
});

describe('GET /api/admin/utm/stats', () => {
  test("counts sign-ups per source, empty source as 'organic'", async () => {
    const source = uniqueName('stats');
    await h.buildUser({ utm_source: source });
    await h.buildUser({ utm_source: source });
    await h.buildUser();
    const res = await h.api<{ stats: Array<{ utm_source: string; count: number }> }>('GET', '/api/admin/utm/stats', {
      token: h.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.stats).toContainEqual({ utm_source: source, count: 2 });
    expect(res.body.stats.find((s) => s.utm_source === 'organic')?.count).toBeGreaterThanOrEqual(2);
  });
});

describe('PUT /api/admin/users/:id', () => {
  test('when the e-mail changes, then the user logs in with the new one and user.updated is published', async () => {
    const user = await h.buildUser();
    const email = `${uniqueName('renamed')}@example.com`;
    const res = await edit(user.id, { email: email.toUpperCase(), role: 'user', tariff_id: null, depositAmount: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, user: { id: user.id, email } });
    await expect(h.login(email, user.password)).resolves.toMatchObject({ id: user.id });
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'user.updated' && (e.data as { user_id: number }).user_id === user.id,
    );
    expect(event.data).toMatchObject({ email, version: 1 });
    // The e-mail alone does not end the user's sessions.
    expect((await h.api('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);
  });

  test('when the e-mail belongs to someone else, then 409 with the message', async () => {
    const [user, other] = [await h.buildUser(), await h.buildUser()];
    const res = await edit(user.id, { email: other.email });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Пользователь с таким email уже существует', code: 'email_taken' });
  });

  test('when the role changes, then the user is an admin and their older tokens are refused', async () => {
    const user = await h.buildUser();
    const res = await edit(user.id, { role: 'admin' });
    expect(res.body.user.role).toBe('admin');
    const old = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('token_revoked');
    const fresh = await h.login(user.email, user.password);
    expect((await list({ email: user.email }, fresh.token)).status).toBe(200);
  });

  test('when an admin demotes themself, then 409 with the message', async () => {
    const res = await edit(h.admin.id, { role: 'user' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Нельзя снять роль администратора с самого себя', code: 'cannot_demote_self' });
  });

  test('when a deposit or another tariff is asked and billing is unreachable, then 503 and nothing changes', async () => {
    const user = await h.buildUser();
    for (const body of [{ depositAmount: 100 }, { tariff_id: PREMIUM_TARIFF.id }]) {
      const res = await edit(user.id, { ...body, email: `${uniqueName('never')}@example.com` });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Биллинг недоступен', code: 'billing_unavailable' });
    }
    expect((await list({ email: user.email })).body.total).toBe(1);
  });

  test('when the deposit is 0 and the tariff unchanged, then billing is not needed', async () => {
    const user = await h.buildUser();
    await reportBalance(h, user.id, { tariff: PREMIUM_TARIFF, version: 1 });
    const res = await edit(user.id, { role: 'user', tariff_id: PREMIUM_TARIFF.id, depositAmount: 0 });
    expect(res.status).toBe(200);
    expect(res.body.user.tariff_name).toBe('Premium');
  });

  test.each([
    [{ depositAmount: -5 }, 'Сумма пополнения должна быть целым неотрицательным числом'],
    [{ depositAmount: 1.5 }, 'Сумма пополнения должна быть целым неотрицательным числом'],
    [{ email: 'nope' }, 'Некорректный email'],
    [{ role: 'root' }, 'Роль должна быть admin или user'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const user = await h.buildUser();
    const res = await edit(user.id, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  test('when the user does not exist, then 404; when the id is not a number, then 400', async () => {
    const missing = await edit(99_999_999, { role: 'user' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Пользователь не найден', code: 'user_not_found' });
    const bad = await h.api('PUT', '/api/admin/users/abc', { token: h.admin.token, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Идентификатор должен быть целым положительным числом');
  });
});

describe('DELETE /api/admin/users/:id', () => {
  test('then the user is gone from the list, user.deleted is published and their tokens are refused', async () => {
    const user = await h.buildUser();
    const res = await remove(user.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Пользователь удален' });
    expect((await list({ email: user.email })).body.total).toBe(0);
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'user.deleted' && (e.data as { user_id: number }).user_id === user.id,
    );
    expect(event.data).toMatchObject({ email: user.email, version: 1 });
    const old = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(old.status).toBe(401);
    await expect(h.login(user.email, user.password)).rejects.toThrow(/401/);
  });

  test('when an admin deletes themself, then 409; an unknown user is 404', async () => {
    const self = await remove(h.admin.id);
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ error: 'Нельзя удалить самого себя', code: 'cannot_delete_self' });
    expect((await remove(99_999_999)).status).toBe(404);
  });
});

describe('the last admin', () => {
  let solo: AuthHarness;
  beforeAll(async () => {
    solo = await startAuth();
  });
  afterAll(() => solo.stop());

  test('when the only two admins demote each other at once, then one admin remains', async () => {
    const second = await solo.buildUser();
    expect(
      (await solo.api('PUT', `/api/admin/users/${second.id}`, { token: solo.admin.token, body: { role: 'admin' } }))
        .status,
    ).toBe(200);
    const other: Session = await solo.login(second.email, second.password);

    const answers = await Promise.all([
      solo.api('PUT', `/api/admin/users/${other.id}`, { token: solo.admin.token, body: { role: 'user' } }),
      solo.api('PUT', `/api/admin/users/${solo.admin.id}`, { token: other.token, body: { role: 'user' } }),
    ]);

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const refused = answers.find((a) => a.status !== 200)!;
    // Refused by the last-admin rule, or (if it started after the other committed) by the revoked token.
    expect([409, 401]).toContain(refused.status);
    if (refused.status === 409) {
      expect(refused.body).toEqual({
        error: 'Нельзя удалить или понизить последнего администратора',
        code: 'last_admin',
      });
    }
    const admins = await solo.auth.deps.db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  });
});
