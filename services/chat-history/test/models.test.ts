import type { AdminModelsResponse, AiModel, BotModelsResponse } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { startTestService } from '@gpt/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { loadChatHistoryConfig } from '../src/config';
import { chatHistoryService } from '../src/service';
import { type Harness, nextNumber, startHarness } from './support/chat-history';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('POST /api/admin/models', () => {
  test('when the body is valid, then 201 with exact 6-decimal prices', async () => {
    const name = `gpt-${nextNumber()}`;
    const res = await h.send<{ success: boolean; model: AiModel }>('POST', '/api/admin/models', {
      model: name,
      description: 'Быстрая модель',
      input_price_per_1m: 0.15,
      output_price_per_1m: '0.6',
      is_active: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      model: {
        model: name,
        description: 'Быстрая модель',
        input_price_per_1m: '0.150000',
        output_price_per_1m: '0.600000',
        is_active: true,
      },
    });
  });

  test('when a price has 6 decimals, then it is kept to the last digit', async () => {
    const model = await h.createModel({ input_price_per_1m: '0.000001', output_price_per_1m: '123456.123456' });
    expect(model.input_price_per_1m).toBe('0.000001');
    expect(model.output_price_per_1m).toBe('123456.123456');
  });

  test('when the name is taken, then 409', async () => {
    const model = await h.createModel();
    const res = await h.send<{ code: string; error: string }>('POST', '/api/admin/models', {
      model: model.model,
      input_price_per_1m: 1,
      output_price_per_1m: 1,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'model_exists', error: `Модель ${model.model} уже существует` });
  });

  test.each([
    ['no name', { input_price_per_1m: 1, output_price_per_1m: 1 }, 'Укажите название модели'],
    ['a blank name', { model: '  ', input_price_per_1m: 1, output_price_per_1m: 1 }, 'Укажите название модели'],
    [
      'a negative price',
      { model: 'x', input_price_per_1m: -1, output_price_per_1m: 1 },
      'Цена должна быть числом не меньше 0',
    ],
    ['7 decimals', { model: 'x', input_price_per_1m: '0.0000001', output_price_per_1m: 1 }, 'Не более 6 знаков'],
    [
      'a price that is not a number',
      { model: 'x', input_price_per_1m: 'abc', output_price_per_1m: 1 },
      'Цена должна быть числом не меньше 0',
    ],
  ])('when the body has %s, then 400 with a Russian message', async (_case, body, message) => {
    const res = await h.send<{ code: string; error: string }>('POST', '/api/admin/models', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.error).toContain(message);
  });

  test('without a token, then 401; with a user token, then 403', async () => {
    const body = { model: 'x', input_price_per_1m: 1, output_price_per_1m: 1 };
    expect((await h.send('POST', '/api/admin/models', body, {})).status).toBe(401);
    const userToken = signAccessToken({ sub: '5', role: 'user', ver: 0 }, h.service.deps.config.JWT_SECRET);
    expect((await h.send('POST', '/api/admin/models', body, { authorization: `Bearer ${userToken}` })).status).toBe(
      403,
    );
  });
});

describe('PUT /api/admin/models/:id', () => {
  test('when valid, then every field changes', async () => {
    const model = await h.createModel();
    const name = `renamed-${nextNumber()}`;
    const res = await h.send<{ model: AiModel }>('PUT', `/api/admin/models/${model.id}`, {
      model: name,
      description: null,
      input_price_per_1m: '3.000001',
      output_price_per_1m: 12,
      is_active: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.model).toMatchObject({
      id: model.id,
      model: name,
      description: null,
      input_price_per_1m: '3.000001',
      output_price_per_1m: '12.000000',
      is_active: false,
    });
  });

  test('when the new name belongs to another model, then 409', async () => {
    const [a, b] = [await h.createModel(), await h.createModel()];
    const res = await h.send('PUT', `/api/admin/models/${b.id}`, {
      model: a.model,
      input_price_per_1m: 1,
      output_price_per_1m: 1,
    });
    expect(res.status).toBe(409);
  });

  test('when the model does not exist, then 404', async () => {
    const res = await h.send<{ code: string }>('PUT', '/api/admin/models/999999', {
      model: 'x',
      input_price_per_1m: 1,
      output_price_per_1m: 1,
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('model_not_found');
  });
});

describe('DELETE /api/admin/models/:id', () => {
  test('when it exists, then it is gone; a second delete is 404', async () => {
    const model = await h.createModel();
    expect(await h.send('DELETE', `/api/admin/models/${model.id}`, undefined)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await h.send('DELETE', `/api/admin/models/${model.id}`, undefined)).status).toBe(404);
  });

  test('when the id is not a number, then 400', async () => {
    expect((await h.send('DELETE', '/api/admin/models/abc', undefined)).status).toBe(400);
  });
});

describe('GET /api/admin/models', () => {
  test('by default, then newest first with the total', async () => {
    const first = await h.createModel();
    const second = await h.createModel();
    const res = await h.get<AdminModelsResponse>('/api/admin/models?page=1&limit=50');
    expect(res.status).toBe(200);
    const ids = res.body.models.map((m) => m.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.body.total).toBeGreaterThanOrEqual(2);
  });

  test('when sorted by a price ascending and paged, then pages follow that order', async () => {
    const all = await h.get<AdminModelsResponse>(
      '/api/admin/models?limit=100&sortField=input_price_per_1m&sortOrder=1',
    );
    const prices = all.body.models.map((m) => Number(m.input_price_per_1m));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const page2 = await h.get<AdminModelsResponse>(
      '/api/admin/models?page=2&limit=2&sortField=input_price_per_1m&sortOrder=1',
    );
    expect(page2.body.models.map((m) => m.id)).toEqual(all.body.models.slice(2, 4).map((m) => m.id));
    expect(page2.body.total).toBe(all.body.total);
  });

  test('when the sort field is not a column, then 400', async () => {
    expect((await h.get('/api/admin/models?sortField=password')).status).toBe(400);
  });
});

describe('image price', () => {
  test('when a model is created with an image price, then it is kept exactly; an update may clear it', async () => {
    const created = await h.createModel({ image_price: 0.04 });
    expect(created.image_price).toBe('0.040000');
    const { image_price: _price, id, created_at: _c, updated_at: _u, ...fields } = created;
    const cleared = await h.send<{ model: AiModel }>('PUT', `/api/admin/models/${id}`, {
      ...fields,
      image_price: null,
    });
    expect(cleared.body.model.image_price).toBeNull();
    expect((await h.createModel()).image_price).toBeNull();
  });

  test('when the image price is negative or has 7 decimals, then 400', async () => {
    const body = { model: `img-${nextNumber()}`, input_price_per_1m: 0, output_price_per_1m: 0 };
    expect((await h.send('POST', '/api/admin/models', { ...body, image_price: -1 })).status).toBe(400);
    expect((await h.send('POST', '/api/admin/models', { ...body, image_price: '0.0000001' })).status).toBe(400);
  });
});

describe('voice prices', () => {
  test('when a model is saved with a price per minute and per 1 000 characters, then both are kept exactly and may be cleared', async () => {
    const created = await h.createModel({ transcription_price_per_minute: '0.006', speech_price_per_1k_chars: 0.015 });
    expect(created).toMatchObject({
      transcription_price_per_minute: '0.006000',
      speech_price_per_1k_chars: '0.015000',
    });
    const { id, created_at: _c, updated_at: _u, ...fields } = created;
    const cleared = await h.send<{ model: AiModel }>('PUT', `/api/admin/models/${id}`, {
      ...fields,
      transcription_price_per_minute: null,
      speech_price_per_1k_chars: '0.03',
    });
    expect(cleared.body.model).toMatchObject({
      transcription_price_per_minute: null,
      speech_price_per_1k_chars: '0.030000',
    });
  });

  test('when a voice price is negative, then 400 with a Russian message', async () => {
    const body = { model: `voice-${nextNumber()}`, input_price_per_1m: 0, output_price_per_1m: 0 };
    const res = await h.send<{ error: string }>('POST', '/api/admin/models', {
      ...body,
      speech_price_per_1k_chars: -1,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('Цена должна быть числом не меньше 0');
  });
});

describe('the default models', () => {
  test('on first start, then the default models exist with their prices and the bot sees them', async () => {
    const res = await h.get<BotModelsResponse>('/api/bot/models', h.bot);
    const byName = new Map(res.body.models.map((m) => [m.model, m]));
    expect(byName.get('gpt-4o-mini')).toMatchObject({
      description: 'Быстрая и недорогая модель',
      input_price_per_1m: '0.150000',
      output_price_per_1m: '0.600000',
      image_price: null,
      is_active: true,
    });
    expect(byName.get('gpt-4o')).toMatchObject({
      description: 'Умная модель для сложных задач',
      input_price_per_1m: '2.500000',
      output_price_per_1m: '10.000000',
      image_price: null,
    });
    expect(byName.get('gpt-image-1')).toMatchObject({ description: 'Генерация изображений', image_price: '0.040000' });
    expect(byName.get('whisper-1')).toMatchObject({
      description: 'Распознавание голосовых сообщений',
      transcription_price_per_minute: '0.006000',
      speech_price_per_1k_chars: null,
    });
    expect(byName.get('tts-1')).toMatchObject({
      description: 'Озвучивание ответов',
      transcription_price_per_minute: null,
      speech_price_per_1k_chars: '0.015000',
    });
  });

  test('when the service starts again after the admin deleted one, then it is not created again', async () => {
    const all = await h.get<AdminModelsResponse>('/api/admin/models?limit=100');
    const seeded = all.body.models.find((m) => m.model === 'gpt-4o')!;
    expect((await h.send('DELETE', `/api/admin/models/${seeded.id}`, undefined)).status).toBe(200);

    // A second start on the same database, as after a restart or when a replica comes up.
    const again = await startTestService(
      chatHistoryService,
      loadChatHistoryConfig,
      {},
      {
        databaseUrl: h.service.deps.config.SERVICE_DATABASE_URL,
      },
    );
    await again.stop();
    const after = await h.get<BotModelsResponse>('/api/bot/models', h.bot);
    expect(after.body.models.map((m) => m.model)).not.toContain('gpt-4o');
  });
});

describe('GET /api/bot/models', () => {
  test('then only the active models are listed, for the bot key only', async () => {
    const active = await h.createModel({ is_active: true });
    const inactive = await h.createModel({ is_active: false });
    const res = await h.get<BotModelsResponse>('/api/bot/models', h.bot);
    expect(res.status).toBe(200);
    const names = res.body.models.map((m) => m.model);
    expect(names).toContain(active.model);
    expect(names).not.toContain(inactive.model);
    expect((await h.get('/api/bot/models', { 'x-bot-key': 'wrong-key-123' })).status).toBe(401);
  });
});
