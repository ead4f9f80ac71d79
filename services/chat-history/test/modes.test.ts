import type { AdminModesResponse, BotModesResponse, ChatMode } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type Harness, nextNumber, startHarness } from './support/chat-history';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const modeBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Режим ${nextNumber()}`,
  emoji: '🧪',
  description: 'Для проверки',
  system_prompt: 'Отвечай одним словом.',
  ...overrides,
});

async function createMode(overrides: Record<string, unknown> = {}): Promise<ChatMode> {
  const res = await h.send<{ mode: ChatMode }>('POST', '/api/admin/modes', modeBody(overrides));
  if (res.status !== 201) throw new Error(`mode not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.mode;
}

const listModes = async (query = 'limit=100') =>
  (await h.get<AdminModesResponse>(`/api/admin/modes?${query}`, h.admin)).body;

const defaultMode = async () => (await listModes()).modes.find((mode) => mode.is_default)!;

describe('the default modes', () => {
  test('on first start, then five Russian modes exist in order, Ассистент the default, and the bot sees them', async () => {
    const res = await h.get<BotModesResponse>('/api/bot/modes', h.bot);
    expect(res.status).toBe(200);
    const seeded = res.body.modes.filter((mode) =>
      ['Ассистент', 'Переводчик', 'Редактор текстов', 'Программист', 'Репетитор'].includes(mode.name),
    );
    expect(seeded.map((mode) => mode.name)).toEqual([
      'Ассистент',
      'Переводчик',
      'Редактор текстов',
      'Программист',
      'Репетитор',
    ]);
    expect(seeded[0]).toMatchObject({
      is_default: true,
      is_active: true,
      emoji: '🤖',
    });
    expect(seeded.every((mode) => mode.system_prompt.length > 50 && mode.description.length > 0)).toBe(true);
  });
});

describe('POST /api/admin/modes', () => {
  test('when the body is valid, then 201 with defaults for the rest', async () => {
    const body = modeBody();
    const res = await h.send<{ success: boolean; mode: ChatMode }>('POST', '/api/admin/modes', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      mode: { ...body, is_active: true, is_default: false, sort_order: 0 },
    });
  });

  test('when a new mode is the default, then it is the only default', async () => {
    const before = await defaultMode();
    const mode = await createMode({ is_default: true, sort_order: 5 });
    const defaults = (await listModes()).modes.filter((m) => m.is_default);
    expect(defaults.map((m) => m.id)).toEqual([mode.id]);
    // Give the default back, so other tests see the seeded one.
    const { id: _id, created_at: _c, updated_at: _u, ...fields } = before;
    expect(
      (
        await h.send('PUT', `/api/admin/modes/${before.id}`, {
          ...fields,
          is_default: true,
        })
      ).status,
    ).toBe(200);
  });

  test('when the name is taken, then 409 in Russian', async () => {
    const mode = await createMode();
    const res = await h.send<{ code: string; error: string }>(
      'POST',
      '/api/admin/modes',
      modeBody({ name: mode.name }),
    );
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'mode_exists',
      error: `Режим «${mode.name}» уже существует`,
    });
  });

  test.each([
    ['no name', { name: ' ' }, 'Укажите название режима'],
    ['no emoji', { emoji: '' }, 'Укажите эмодзи режима'],
    ['no description', { description: undefined }, 'Укажите краткое описание'],
    ['no system prompt', { system_prompt: '' }, 'Укажите системный промпт'],
    [
      'a prompt of 4 001 characters',
      { system_prompt: 'я'.repeat(4001) },
      'Системный промпт должен быть не длиннее 4 000 символов',
    ],
    ['a negative sort order', { sort_order: -1 }, 'Порядок — целое число от 0 до 10 000'],
    ['an inactive default', { is_default: true, is_active: false }, 'Режим по умолчанию должен быть активным'],
  ])('when the body has %s, then 400 with the Russian message', async (_case, overrides, message) => {
    const res = await h.send<{ code: string; error: string }>('POST', '/api/admin/modes', modeBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.error).toContain(message);
  });

  test('when a prompt has exactly 4 000 characters, then it is kept', async () => {
    expect((await createMode({ system_prompt: 'я'.repeat(4000) })).system_prompt).toHaveLength(4000);
  });

  test('without a token, then 401; with a user token, then 403', async () => {
    expect((await h.send('POST', '/api/admin/modes', modeBody(), {})).status).toBe(401);
    const userToken = signAccessToken({ sub: '5', role: 'user', ver: 0 }, h.service.deps.config.JWT_SECRET);
    const asUser = { authorization: `Bearer ${userToken}` };
    expect((await h.send('POST', '/api/admin/modes', modeBody(), asUser)).status).toBe(403);
    expect((await h.get('/api/admin/modes', asUser)).status).toBe(403);
  });
});

describe('PUT and DELETE /api/admin/modes/:id', () => {
  test('when valid, then every field changes', async () => {
    const mode = await createMode();
    const body = modeBody({ emoji: '📚', is_active: false, sort_order: 7 });
    const res = await h.send<{ mode: ChatMode }>('PUT', `/api/admin/modes/${mode.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body.mode).toMatchObject({ id: mode.id, ...body });
  });

  test('when the default would stop being the default or be deleted, then 409 and it stays', async () => {
    const current = await defaultMode();
    const { id, created_at: _c, updated_at: _u, ...fields } = current;
    const unset = await h.send<{ code: string }>('PUT', `/api/admin/modes/${id}`, { ...fields, is_default: false });
    expect(unset.status).toBe(409);
    expect(unset.body.code).toBe('default_mode_required');
    const removed = await h.send<{ code: string; error: string }>('DELETE', `/api/admin/modes/${id}`, undefined);
    expect(removed.status).toBe(409);
    expect(removed.body.error).toBe('Режим по умолчанию нельзя удалить: сначала назначьте режимом по умолчанию другой');
    expect((await defaultMode()).id).toBe(id);
  });

  test('when a mode is deleted, then it is gone and the bot no longer offers it; again, then 404', async () => {
    const mode = await createMode();
    expect(await h.send('DELETE', `/api/admin/modes/${mode.id}`, undefined)).toEqual({
      status: 200,
      body: { success: true },
    });
    const bot = await h.get<BotModesResponse>('/api/bot/modes', h.bot);
    expect(bot.body.modes.map((m) => m.id)).not.toContain(mode.id);
    const again = await h.send<{ code: string }>('DELETE', `/api/admin/modes/${mode.id}`, undefined);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('mode_not_found');
  });

  test('when the mode does not exist, then 404', async () => {
    expect((await h.send('PUT', '/api/admin/modes/999999', modeBody())).status).toBe(404);
  });
});

describe('GET /api/admin/modes', () => {
  test('when sorted by sort order and paged, then pages follow that order with the total', async () => {
    const all = await listModes('limit=100&sortField=sort_order&sortOrder=1');
    const orders = all.modes.map((m) => m.sort_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    const page2 = await listModes('page=2&limit=2&sortField=sort_order&sortOrder=1');
    expect(page2.modes.map((m) => m.id)).toEqual(all.modes.slice(2, 4).map((m) => m.id));
    expect(page2.total).toBe(all.total);
  });

  test('when searched, then only modes with the text in name, description or prompt, any case, and their count', async () => {
    const marker = `Маркер${nextNumber()}`;
    const byName = await createMode({ name: `${marker} имя` });
    const byPrompt = await createMode({
      system_prompt: `Текст ${marker.toLowerCase()} в промпте`,
    });
    await createMode();
    const found = await listModes(`q=${encodeURIComponent(marker.toUpperCase())}&sortField=id&sortOrder=1`);
    expect(found.modes.map((m) => m.id)).toEqual([byName.id, byPrompt.id]);
    expect(found.total).toBe(2);
    expect((await listModes('q=%25')).modes.every((m) => JSON.stringify(m).includes('%'))).toBe(true);
  });

  test('when the sort field is not a column, then 400', async () => {
    expect((await h.get('/api/admin/modes?sortField=system_prompt', h.admin)).status).toBe(400);
  });
});

describe('GET /api/bot/modes', () => {
  test('then only active modes, in their sort order, for the bot key only', async () => {
    const inactive = await createMode({ is_active: false });
    const res = await h.get<BotModesResponse>('/api/bot/modes', h.bot);
    expect(res.body.modes.map((m) => m.id)).not.toContain(inactive.id);
    const orders = res.body.modes.map((m) => m.sort_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect((await h.get('/api/bot/modes', { 'x-bot-key': 'wrong-key-123' })).status).toBe(401);
  });
});
