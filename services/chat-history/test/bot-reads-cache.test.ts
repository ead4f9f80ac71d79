import type { AiModel, BotModelsResponse, BotSettingsResponse, WelcomeOfferResponse } from '@gpt/contracts';
import { seenWithin, startTestReplica } from '@gpt/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { loadChatHistoryConfig } from '../src/config';
import { chatHistoryService } from '../src/service';
import { type ChatHistoryService, type Harness, nextNumber, startHarness } from './support/chat-history';

// Two replicas of chat-history on one database and one Redis (key prefix and change channels), as
// `docker compose up --scale chat-history=2` runs them. A kept answer lives 30 s at most, so a change
// seen on the other replica within a second was announced, not waited out.
let h: Harness;
let replica: ChatHistoryService;
beforeAll(async () => {
  h = await startHarness();
  replica = await startTestReplica(chatHistoryService, loadChatHistoryConfig, h.service);
});
afterAll(async () => {
  await replica.stop();
  await h.close();
});

const urls = () => [h.url, replica.url];

async function read<T>(base: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: h.bot });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function send(base: string, method: string, path: string, body?: unknown) {
  const headers = { ...h.admin, 'content-type': 'application/json' };
  const res = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Reads `path` on both replicas, so each keeps it. */
async function keptOnBoth(path: string) {
  for (const base of urls()) await read(base, path);
}

const names = (body: BotModelsResponse) => body.models.map((m) => m.model);

describe('the bot’s models and settings and the welcome offer are kept until they change, on every replica', () => {
  test('when a model is added on one replica and switched off on the other, then /api/bot/models follows on both within 1 s', async () => {
    await keptOnBoth('/api/bot/models');
    const model = `gpt-cached-${nextNumber()}`;
    const fields = { model, description: null, input_price_per_1m: '1.000000', output_price_per_1m: '2.000000' };
    const created = await send(replica.url, 'POST', '/api/admin/models', { ...fields, is_active: true });
    expect(created.status).toBe(201);
    expect(names(await read(replica.url, '/api/bot/models'))).toContain(model);
    await seenWithin(
      1000,
      () => read<BotModelsResponse>(h.url, '/api/bot/models'),
      (body) => names(body).includes(model),
    );

    const { id } = created.body.model as AiModel;
    expect((await send(h.url, 'PUT', `/api/admin/models/${id}`, { ...fields, is_active: false })).status).toBe(200);
    expect(names(await read(h.url, '/api/bot/models'))).not.toContain(model);
    await seenWithin(
      1000,
      () => read<BotModelsResponse>(replica.url, '/api/bot/models'),
      (body) => !names(body).includes(model),
    );
  });

  test('when a setting is created, changed and deleted through one replica, then /api/bot/settings on the other follows within 1 s', async () => {
    await keptOnBoth('/api/bot/settings');
    const key = `cached_setting_${nextNumber()}`;
    const settingsAt = (base: string) => () => read<BotSettingsResponse>(base, '/api/bot/settings');

    expect((await send(h.url, 'POST', '/api/admin/sys_vals', { key, value: 'один' })).status).toBe(201);
    expect((await settingsAt(h.url)())[key]).toBe('один');
    await seenWithin(1000, settingsAt(replica.url), (settings) => settings[key] === 'один');

    expect((await send(replica.url, 'PUT', `/api/admin/sys_vals/${key}`, { value: 'два' })).status).toBe(200);
    await seenWithin(1000, settingsAt(h.url), (settings) => settings[key] === 'два');

    expect((await send(h.url, 'DELETE', `/api/admin/sys_vals/${key}`)).status).toBe(200);
    await seenWithin(1000, settingsAt(replica.url), (settings) => !(key in settings));
  });

  test('when the welcome grant changes on one replica, then the welcome offer on the other shows it within 1 s', async () => {
    await keptOnBoth('/api/welcome_offer');
    const credits = 1000 + (nextNumber() % 1000);
    expect(
      (await send(replica.url, 'PUT', '/api/admin/sys_vals/welcome_credits', { value: String(credits) })).status,
    ).toBe(200);
    await seenWithin(
      1000,
      () => read<WelcomeOfferResponse>(h.url, '/api/welcome_offer'),
      (offer) => offer.welcome_credits === credits,
    );
  });

  test('when a change is refused (a model name already taken), then the kept list is still right', async () => {
    const before = await read<BotModelsResponse>(h.url, '/api/bot/models');
    const taken = before.models[0]!;
    const res = await send(h.url, 'POST', '/api/admin/models', { ...taken, id: undefined });
    expect(res.status).toBe(409);
    expect(await read(h.url, '/api/bot/models')).toEqual(before);
  });
});

describe('ETag and 304', () => {
  test.each(['/api/bot/models', '/api/bot/settings', '/api/welcome_offer'])(
    'when the client holds the current %s, then 304 without a body on either replica; after a change, 200 with another ETag',
    async (path) => {
      const first = await fetch(`${h.url}${path}`, { headers: h.bot });
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^".+"$/);
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      await first.arrayBuffer();
      for (const base of urls()) {
        const again = await fetch(`${base}${path}`, { headers: { ...h.bot, 'If-None-Match': etag } });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
      }

      const model = await h.createModel();
      await send(h.url, 'PUT', '/api/admin/sys_vals/default_model', { value: model.model });
      const after = await fetch(`${h.url}${path}`, { headers: { ...h.bot, 'If-None-Match': etag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
    },
  );
});
