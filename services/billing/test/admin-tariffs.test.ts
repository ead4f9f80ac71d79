import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { CreditsChangedData, Tariff } from '@gpt/contracts';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
let admin: string;

beforeAll(async () => {
  h = await startBillingHarness();
  admin = h.adminToken();
});
afterAll(() => h.stop());

type TariffAnswer = { success: true; tariff: Tariff; error?: string; code?: string };
const create = (body: Record<string, unknown>) =>
  h.call<TariffAnswer>('POST', '/api/admin/tariffs', { token: admin, body });
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

describe('GET /api/admin/tariffs', () => {
  test('by default, then sorted by id ascending, 10 a page, with the total', async () => {
    const res = await h.call<{ data: Tariff[]; total: number }>('GET', '/api/admin/tariffs', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.slice(0, 3).map((t) => t.name)).toEqual(['Base', 'Premium', 'Elite']);
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    const ids = res.body.data.map((t) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  test('when sorted by monthly_price descending (sortOrder -1) with page 1 limit 2, then the two dearest come first', async () => {
    await create({ name: unique('Люкс'), monthly_price: '99999.99' });
    const res = await h.call<{ data: Tariff[]; total: number }>(
      'GET',
      '/api/admin/tariffs?page=1&limit=2&sortField=monthly_price&sortOrder=-1',
      { token: admin },
    );
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]!.monthly_price).toBe('99999.99');
    expect(res.body.total).toBeGreaterThan(2);
  });

  test('when sorting by description (not sortable) or with a bad page, then 400', async () => {
    const bad = await h.call('GET', '/api/admin/tariffs?sortField=description', { token: admin });
    expect(bad).toMatchObject({ status: 400, body: { error: 'Недопустимое поле сортировки' } });
    expect((await h.call('GET', '/api/admin/tariffs?page=0', { token: admin })).status).toBe(400);
  });

  test('GET /api/admin/tariffs/all lists id, name and price of every tariff for selects', async () => {
    const res = await h.call<Array<Record<string, unknown>>>('GET', '/api/admin/tariffs/all', { token: admin });
    expect(res.body.slice(0, 3)).toEqual([
      { id: 1, name: 'Base', monthly_price: '0.00' },
      { id: 2, name: 'Premium', monthly_price: '350.00' },
      { id: 3, name: 'Elite', monthly_price: '1250.00' },
    ]);
  });

  test('when there is no token or it is not an admin, then 401 / 403', async () => {
    expect((await h.call('GET', '/api/admin/tariffs')).status).toBe(401);
    expect((await h.call('GET', '/api/admin/tariffs', { token: h.userToken(5) })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/tariffs', { token: h.userToken(5), body: { name: 'x' } })).status).toBe(
      403,
    );
  });
});

describe('POST /api/admin/tariffs', () => {
  test('when only a name is given, then the defaults of docs/product.md, Data apply and the name is trimmed', async () => {
    const name = unique('Старт');
    const res = await create({ name: `  ${name}  ` });
    expect(res.status).toBe(201);
    expect(res.body.tariff).toMatchObject({
      name,
      description: null,
      monthly_price: '0.00',
      credits_per_ruble: 100,
      included_credits: 0,
      can_generate_images: false,
      is_active: true,
    });
  });

  test('when every field is given, then the tariff is stored exactly', async () => {
    const name = unique('Про');
    const res = await create({
      name,
      description: 'Для команд',
      monthly_price: 499.9,
      credits_per_ruble: 250,
      included_credits: 120_000,
      can_generate_images: true,
      is_active: false,
    });
    expect(res.body.tariff).toMatchObject({
      monthly_price: '499.90',
      credits_per_ruble: 250,
      included_credits: 120_000,
    });
    const publicList = await h.call<{ tariffs: Tariff[] }>('GET', '/api/tariffs');
    expect(publicList.body.tariffs.map((t) => t.name)).not.toContain(name);
  });

  test.each([
    [{ name: '   ' }, 'Название обязательно'],
    [{}, 'Название обязательно'],
    [{ name: 'A', credits_per_ruble: 0 }, 'Количество кредитов должно быть больше 0'],
    [{ name: 'A', credits_per_ruble: -3 }, 'Количество кредитов должно быть больше 0'],
    [{ name: 'A', credits_per_ruble: 1.5 }, 'Количество кредитов должно быть целым числом'],
    [{ name: 'A', monthly_price: -1 }, 'Цена не может быть отрицательной'],
    [{ name: 'A', monthly_price: '10.005' }, 'Цена: не более 2 знаков после запятой'],
    [{ name: 'A', included_credits: -1 }, 'Включённые кредиты должны быть целым числом не меньше 0'],
  ])('when the body is %j, then 400 with "%s"', async (body, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, code: 'validation_error' });
  });

  test('when the name is taken (in any case), then 409 with a clear message', async () => {
    const res = await create({ name: 'premium' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Тариф с таким названием уже существует', code: 'tariff_name_taken' });
  });
});

describe('PUT /api/admin/tariffs/:id', () => {
  test('when a tariff is edited, then the answer has the new values and a later updated_at', async () => {
    const { body } = await create({ name: unique('Изм'), monthly_price: 10 });
    const res = await h.call<TariffAnswer>('PUT', `/api/admin/tariffs/${body.tariff.id}`, {
      token: admin,
      body: { name: body.tariff.name, monthly_price: '20.50', credits_per_ruble: 150, is_active: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.tariff).toMatchObject({ monthly_price: '20.50', credits_per_ruble: 150, is_active: false });
    expect(res.body.tariff.updated_at > body.tariff.updated_at).toBe(true);
  });

  test('when the name of a held tariff changes, then every holder gets a new credits.changed snapshot with it', async () => {
    const { body } = await create({ name: unique('Держат'), monthly_price: 5 });
    const userId = await h.registerUser();
    await h.call('POST', `/internal/users/${userId}/adjustments`, {
      token: h.adminToken(3),
      body: { user_id: userId, admin_id: 3, action_id: randomUUID(), tariff_id: body.tariff.id },
    });
    const renamed = unique('Переименован');
    await h.call('PUT', `/api/admin/tariffs/${body.tariff.id}`, {
      token: admin,
      body: { name: renamed, monthly_price: 5 },
    });
    const event = await h.billing.deps.bus.waitFor(
      'published',
      (e) =>
        e.type === 'credits.changed' &&
        (e.data as CreditsChangedData).user_id === userId &&
        (e.data as CreditsChangedData).reason === 'tariff_updated',
    );
    expect(event.data).toMatchObject({ tariff: { id: body.tariff.id, name: renamed }, version: 3 });
  });

  test('when the tariff is unknown or the new name is taken, then 404 / 409; an invalid body is 400', async () => {
    const missing = await h.call('PUT', '/api/admin/tariffs/99999', { token: admin, body: { name: 'X' } });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Тариф не найден' } });
    const { body } = await create({ name: unique('Конфликт') });
    const taken = await h.call('PUT', `/api/admin/tariffs/${body.tariff.id}`, {
      token: admin,
      body: { name: 'Elite' },
    });
    expect(taken.status).toBe(409);
    const invalid = await h.call('PUT', `/api/admin/tariffs/${body.tariff.id}`, {
      token: admin,
      body: { name: 'X', credits_per_ruble: 0 },
    });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'Количество кредитов должно быть больше 0' } });
    expect((await h.call('PUT', '/api/admin/tariffs/abc', { token: admin, body: { name: 'X' } })).status).toBe(400);
  });
});

describe('DELETE /api/admin/tariffs/:id', () => {
  test('when nobody holds the tariff, then it is deleted', async () => {
    const { body } = await create({ name: unique('Удалить') });
    const res = await h.call('DELETE', `/api/admin/tariffs/${body.tariff.id}`, { token: admin });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'Тариф удален' } });
    expect((await h.call('DELETE', `/api/admin/tariffs/${body.tariff.id}`, { token: admin })).status).toBe(404);
  });

  test('when users hold the tariff, then 409 says to deactivate it instead', async () => {
    const { body } = await create({ name: unique('Занят'), monthly_price: 1 });
    const userId = await h.registerUser();
    await h.call('POST', `/internal/users/${userId}/adjustments`, {
      token: h.adminToken(3),
      body: { user_id: userId, admin_id: 3, action_id: randomUUID(), tariff_id: body.tariff.id },
    });
    const res = await h.call('DELETE', `/api/admin/tariffs/${body.tariff.id}`, { token: admin });
    expect(res).toMatchObject({
      status: 409,
      body: {
        error: 'Тариф нельзя удалить: он назначен пользователям (1). Отключите его вместо удаления.',
        code: 'tariff_in_use',
      },
    });
  });

  test('when the tariff is Base, then 409: everyone starts on it', async () => {
    const res = await h.call('DELETE', '/api/admin/tariffs/1', { token: admin });
    expect(res).toMatchObject({ status: 409, body: { code: 'tariff_default' } });
  });
});
