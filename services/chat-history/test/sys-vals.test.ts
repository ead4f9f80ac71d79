import type { AdminSysValsResponse, SettingChangedData, SysVal } from '@gpt/contracts';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type Harness, nextNumber, startHarness } from './support/chat-history';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The setting.changed chat-history published for `key`, the next one not yet claimed. */
const announced = (key: string) =>
  h.service.deps.bus
    .waitFor('published', (e) => e.type === 'setting.changed' && (e.data as SettingChangedData).key === key)
    .then((e) => e.data as SettingChangedData);

const createSetting = async (key: string, value = 'v') => {
  const res = await h.send<{ success: boolean; data: SysVal }>('POST', '/api/admin/sys_vals', { key, value });
  if (res.status !== 201) throw new Error(`createSetting: ${res.status}`);
  return res.body.data;
};

describe('settings at first start', () => {
  test('then the cost formula settings exist', async () => {
    const res = await h.get<Record<string, string>>('/api/bot/settings', h.bot);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ usd_rub_rate: '95.00', credit_markup: '2.0', credits_per_rub: '100' });
  });

  test('then the bot settings exist with their defaults', async () => {
    const res = await h.get<Record<string, string>>('/api/bot/settings', h.bot);
    expect(res.body).toMatchObject({
      default_model: 'gpt-4o-mini',
      vision_model: 'gpt-4o-mini',
      image_model: 'gpt-image-1',
      bot_messages_per_minute: '20',
      low_balance_threshold: '500',
      max_output_tokens: '1024',
      context_token_budget: '6000',
    });
  });
});

describe('welcome_credits: the welcome grant billing gives', () => {
  test('at first start, then it is 2000 and announced with setting.changed', async () => {
    const res = await h.get<Record<string, string>>('/api/bot/settings', h.bot);
    expect(res.body.welcome_credits).toBe('2000');
    expect(await announced('welcome_credits')).toMatchObject({ key: 'welcome_credits', value: '2000' });
  });

  test('when the admin changes it, then setting.changed carries the value with a newer version', async () => {
    const seeded = await announced('usd_rub_rate');
    const res = await h.send('PUT', '/api/admin/sys_vals/welcome_credits', { value: '0' });
    expect(res.status).toBe(200);
    const change = await announced('welcome_credits');
    expect(change).toMatchObject({ key: 'welcome_credits', value: '0' });
    expect(change.version).toBeGreaterThan(seeded.version);
    await h.send('PUT', '/api/admin/sys_vals/welcome_credits', { value: '2000' });
    expect((await announced('welcome_credits')).value).toBe('2000');
  });

  test('when the value is not a whole number from 0 to 1 000 000, then 400 and it stays', async () => {
    for (const value of ['-1', '1.5', 'много', '1000001']) {
      const res = await h.send<{ code: string }>('PUT', '/api/admin/sys_vals/welcome_credits', { value });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_setting_value');
    }
    expect((await h.get<Record<string, string>>('/api/bot/settings', h.bot)).body.welcome_credits).toBe('2000');
  });

  test('when the admin deletes it, then 409: set it to 0 to turn the grant off', async () => {
    const res = await h.send<{ code: string; error: string }>(
      'DELETE',
      '/api/admin/sys_vals/welcome_credits',
      undefined,
    );
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'setting_in_use' });
  });

  test('when another setting is deleted, then setting.changed says so with a null value', async () => {
    const { key } = await createSetting(`gone_${nextNumber()}`);
    expect(await announced(key)).toMatchObject({ key, value: 'v' });
    await h.send('DELETE', `/api/admin/sys_vals/${key}`, undefined);
    expect(await announced(key)).toMatchObject({ key, value: null });
  });
});

describe('GET /api/welcome_offer', () => {
  test('then the grant now and a message of 500 + 500 tokens with the default model, priced by messageCost, without signing in', async () => {
    const res = await h.get('/api/welcome_offer');
    expect(res.status).toBe(200);
    // (500 × 0.15 + 500 × 0.60) / 1M $ = 0.000375 $ × 95 × 2 × 100 = 7.125 → 8 credits.
    expect(res.body).toEqual({
      welcome_credits: 2000,
      model: 'gpt-4o-mini',
      input_tokens: 500,
      output_tokens: 500,
      message_credits: 8,
    });
  });

  test('when the admin turns the grant off, then the offer says 0', async () => {
    await h.send('PUT', '/api/admin/sys_vals/welcome_credits', { value: '0' });
    expect((await h.get<{ welcome_credits: number }>('/api/welcome_offer')).body.welcome_credits).toBe(0);
    await h.send('PUT', '/api/admin/sys_vals/welcome_credits', { value: '2000' });
  });
});

describe('POST /api/admin/sys_vals', () => {
  test('when key and value are given, then 201 with the setting', async () => {
    const key = `max_tokens_per_request.${nextNumber()}-x`;
    const res = await h.send<{ success: boolean; data: SysVal }>('POST', '/api/admin/sys_vals', {
      key,
      value: '4096',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, data: { key, value: '4096' } });
    expect(res.body.data.created_at).toBe(res.body.data.updated_at);
  });

  test('when the key exists, then 409', async () => {
    const { key } = await createSetting(`dup_${nextNumber()}`);
    const res = await h.send<{ code: string; error: string }>('POST', '/api/admin/sys_vals', { key, value: 'x' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'setting_exists', error: `Настройка с ключом ${key} уже существует` });
  });

  test.each([
    [{ value: 'x' }, 'Заполните все поля'],
    [{ key: 'k', value: '   ' }, 'Заполните все поля'],
    [{ key: '', value: 'x' }, 'Заполните все поля'],
    [{ key: 'ключ', value: 'x' }, 'Ключ может содержать только латинские буквы, цифры, _, . и -'],
    [{ key: 'a b', value: 'x' }, 'Ключ может содержать только латинские буквы, цифры, _, . и -'],
    [{ key: 'a'.repeat(101), value: 'x' }, 'Ключ должен быть не длиннее 100 символов'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const res = await h.send<{ error: string }>('POST', '/api/admin/sys_vals', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  test('when a cost setting would not be a positive number, then 400', async () => {
    const res = await h.send<{ code: string }>('PUT', '/api/admin/sys_vals/usd_rub_rate', { value: '-5' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_setting_value');
    expect((await h.send('PUT', '/api/admin/sys_vals/credit_markup', { value: 'два' })).status).toBe(400);
  });
});

describe('PUT /api/admin/sys_vals/:key', () => {
  test('the bot’s rate, token and threshold settings keep to their ranges: a value that would break the bot is 400 in Russian', async () => {
    for (const [key, value, message] of [
      ['max_output_tokens', '999999999', 'Значение max_output_tokens должно быть целым числом от 16 до 32\u00a0768'],
      ['context_token_budget', '-1', 'Значение context_token_budget должно быть целым числом от 256 до 200\u00a0000'],
      ['bot_messages_per_minute', '0', 'Значение bot_messages_per_minute должно быть целым числом от 1 до 600'],
    ] as const) {
      const res = await h.send<{ code: string; error: string }>('PUT', `/api/admin/sys_vals/${key}`, { value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_setting_value', error: message });
    }
    const settings = (await h.get<Record<string, string>>('/api/bot/settings', h.bot)).body;
    expect(settings).toMatchObject({
      max_output_tokens: '1024',
      context_token_budget: '6000',
      bot_messages_per_minute: '20',
    });
    expect((await h.send('PUT', '/api/admin/sys_vals/max_output_tokens', { value: '2048' })).status).toBe(200);
    expect((await h.send('PUT', '/api/admin/sys_vals/max_output_tokens', { value: '1024' })).status).toBe(200);
  });

  test('the renewal settings are seeded and keep to their bounds; they cannot be deleted', async () => {
    for (const [key, value, message] of [
      ['renewal_lead_hours', '0', 'Значение renewal_lead_hours должно быть целым числом от 1 до 72'],
      ['renewal_reminder_days', '30', 'Значение renewal_reminder_days должно быть целым числом от 1 до 14'],
      ['renewal_grace_days', 'три', 'Значение renewal_grace_days должно быть целым числом от 1 до 14'],
    ] as const) {
      const res = await h.send<{ code: string; error: string }>('PUT', `/api/admin/sys_vals/${key}`, { value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_setting_value', error: message });
    }
    expect((await h.send('DELETE', '/api/admin/sys_vals/renewal_lead_hours', undefined)).status).toBe(409);
    expect((await h.send('PUT', '/api/admin/sys_vals/renewal_lead_hours', { value: '48' })).status).toBe(200);
    expect((await h.send('PUT', '/api/admin/sys_vals/renewal_lead_hours', { value: '24' })).status).toBe(200);
  });

  test('when the key exists, then only the value and updated_at change', async () => {
    const created = await createSetting(`edit_${nextNumber()}`, 'old');
    const res = await h.send<{ data: SysVal }>('PUT', `/api/admin/sys_vals/${created.key}`, { value: 'new' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, key: created.key, value: 'new' });
    expect(res.body.data.created_at).toBe(created.created_at);
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
  });

  test('when the body also names a key, then the key is not changed', async () => {
    const created = await createSetting(`keep_${nextNumber()}`);
    const res = await h.send<{ data: SysVal }>('PUT', `/api/admin/sys_vals/${created.key}`, {
      key: 'other',
      value: 'x',
    });
    expect(res.body.data.key).toBe(created.key);
  });

  test('when the key does not exist, then 404', async () => {
    const res = await h.send<{ code: string }>('PUT', '/api/admin/sys_vals/nope_nope', { value: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('setting_not_found');
  });

  test('when the value is missing, then 400 "Заполните все поля"', async () => {
    const res = await h.send<{ error: string }>('PUT', '/api/admin/sys_vals/usd_rub_rate', {});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Заполните все поля');
  });
});

describe('DELETE /api/admin/sys_vals/:key', () => {
  test('when it exists, then it is gone from the list and the bot map', async () => {
    const { key } = await createSetting(`del_${nextNumber()}`);
    expect((await h.send('DELETE', `/api/admin/sys_vals/${key}`, undefined)).body).toEqual({ success: true });
    expect((await h.get<Record<string, string>>('/api/bot/settings', h.bot)).body[key]).toBeUndefined();
    expect((await h.send('DELETE', `/api/admin/sys_vals/${key}`, undefined)).status).toBe(404);
  });

  test('when the cost formula uses it, then 409 and it stays', async () => {
    const res = await h.send<{ code: string }>('DELETE', '/api/admin/sys_vals/usd_rub_rate', undefined);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('setting_in_use');
  });
});

describe('GET /api/admin/sys_vals', () => {
  test('by default, then sorted by key ascending with pagination.total', async () => {
    const prefix = `list${nextNumber()}`;
    for (const suffix of ['c', 'a', 'b']) await createSetting(`${prefix}_${suffix}`);
    const res = await h.get<AdminSysValsResponse>('/api/admin/sys_vals?page=1&limit=50');
    expect(res.status).toBe(200);
    const keys = res.body.data.map((s) => s.key);
    expect(keys).toEqual([...keys].sort());
    expect(res.body.pagination).toMatchObject({ page: 1, limit: 50, total: res.body.data.length });
  });

  test('when sorted by id descending and paged with limit 2, then page 2 continues page 1', async () => {
    const all = await h.get<AdminSysValsResponse>('/api/admin/sys_vals?limit=100&sortField=id&sortOrder=-1');
    const ids = all.body.data.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page2 = await h.get<AdminSysValsResponse>('/api/admin/sys_vals?page=2&limit=2&sortField=id&sortOrder=-1');
    expect(page2.body.data.map((s) => s.id)).toEqual(ids.slice(2, 4));
    expect(page2.body.pagination).toMatchObject({ page: 2, limit: 2, pages: Math.ceil(ids.length / 2) });
  });

  test('when sorted by value, then 400: value is not sortable', async () => {
    expect((await h.get('/api/admin/sys_vals?sortField=value')).status).toBe(400);
  });
});
