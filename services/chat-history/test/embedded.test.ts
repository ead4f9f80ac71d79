import { rm } from 'node:fs/promises';
import type { AdminHistoryResponse, HistoryMessage } from '@gpt/contracts';
import { createInProcessBroker, type RunningService, signAccessToken, startService } from '@gpt/kit';
import { createEvent, TEST_SECRETS, pgliteDataDir } from '@gpt/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChatHistoryConfig, loadChatHistoryConfig } from '../src/config';
import type { ChatHistoryDatabase } from '../src/data/schema';
import { chatHistoryService } from '../src/service';

/** The embedded default: PGlite (no pg_trgm), the in-process bus, in-memory keys. */
let service: RunningService<ChatHistoryConfig, ChatHistoryDatabase>;
let dataDir: string;
const broker = createInProcessBroker();
let admin: Record<string, string>;
let bot: Record<string, string>;

beforeAll(async () => {
  dataDir = await pgliteDataDir('chat-history');
  service = await startService(
    chatHistoryService,
    loadChatHistoryConfig({ ...TEST_SECRETS, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }),
    { broker },
  );
  const { config } = service.deps;
  admin = { authorization: `Bearer ${signAccessToken({ sub: '1', role: 'admin', ver: 0 }, config.JWT_SECRET)}` };
  bot = { 'x-bot-key': config.BOT_API_KEY };
}, 60_000);
afterAll(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('on PGlite', () => {
  test('migrations ran, and a message with an image round-trips, is found by text, exported and walked', async () => {
    const event = createEvent('user.registered', 'auth', {
      user_id: 42,
      email: 'embedded@example.com',
      role: 'user',
      username: 'embedded',
      first_name: 'Эмбед',
      last_name: null,
      telegram_id: 4242,
      telegram_username: null,
      telegram_email: null,
      utm_source: null,
      created_at: new Date().toISOString(),
      version: 0,
      source: 'telegram',
    });
    const acked = service.deps.bus.waitFor('acked', (e) => e.id === event.id);
    broker.publish('user.registered', JSON.stringify(event));
    await acked;

    const model = await fetch(`${service.url}/api/admin/models`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-embedded', input_price_per_1m: '2.5', output_price_per_1m: '10' }),
    });
    expect(model.status).toBe(201);

    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 7)]);
    const messages: HistoryMessage[] = [];
    for (const text of ['Первый вопрос про КОШЕК', 'Второй вопрос']) {
      const form = new FormData();
      form.set('telegram_id', '4242');
      form.set('model', 'gpt-embedded');
      form.set('user_message', text);
      form.set('input_tokens', '1234');
      form.set('output_tokens', '567');
      form.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
      const res = await fetch(`${service.url}/api/bot/messages`, { method: 'POST', headers: bot, body: form });
      expect(res.status).toBe(201);
      messages.push((await res.json()) as HistoryMessage);
    }
    expect(messages[0]).toMatchObject({ total_cost: '0.008755000000', cost: 167, username: 'embedded' });

    const image = await fetch(`${service.url}${messages[0]!.image_path}`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

    const all = (await (
      await fetch(`${service.url}/api/admin/history`, { headers: admin })
    ).json()) as AdminHistoryResponse;
    expect(all.total).toBe(2);

    const found = (await (
      await fetch(`${service.url}/api/admin/history?message=${encodeURIComponent('кошек')}`, { headers: admin })
    ).json()) as AdminHistoryResponse;
    expect(found.history.map((m) => m.id)).toEqual([messages[0]!.id]);

    const next = (await (
      await fetch(`${service.url}/api/admin/history/next/${messages[1]!.id}`, { headers: admin })
    ).json()) as HistoryMessage;
    expect(next.id).toBe(messages[0]!.id);

    const csv = await (await fetch(`${service.url}/api/admin/history/export?userId=42`, { headers: admin })).text();
    expect(csv.trim().split('\r\n')).toHaveLength(3);
  });
});
