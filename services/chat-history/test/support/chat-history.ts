import type { EventType, HistoryMessage, UserRegisteredData, AiModel, EventSchemas } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { createEvent, publishRaw, startTestService, type TestService } from '@gpt/kit/testing';
import type { z } from 'zod';
import { type ChatHistoryConfig, loadChatHistoryConfig } from '../../src/config';
import type { ChatHistoryDatabase } from '../../src/data/schema';
import type { ChatHistoryDeps } from '../../src/deps';
import { chatHistoryService } from '../../src/service';

export type ChatHistoryService = TestService<ChatHistoryConfig, ChatHistoryDatabase, ChatHistoryDeps>;

/** Everything a chat-history test talks to: the service on its own database and exchange, and auth's side of the bus. */
export interface Harness {
  service: ChatHistoryService;
  url: string;
  admin: Record<string, string>;
  bot: Record<string, string>;
  /** Publishes an event as auth would, on the service's exchange; resolves once the service acknowledged it. */
  deliver<T extends EventType>(type: T, data: z.input<EventSchemas[T]>, options?: { id?: string }): Promise<void>;
  /** Publishes a raw body (poisoned messages) with the routing key `type`. */
  deliverRaw(type: string, body: string): Promise<void>;
  registerUser(overrides?: Partial<UserRegisteredData>): Promise<UserRegisteredData>;
  createModel(overrides?: Partial<Record<keyof AiModel, unknown>>): Promise<AiModel>;
  recordMessage(body: Record<string, unknown>): Promise<HistoryMessage>;
  get<T = unknown>(path: string, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
  send<T = unknown>(
    method: string,
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

let sequence = 0;
/** Numbers no other call in this process has used (ids, Telegram ids, names). */
export const nextNumber = () => {
  sequence += 1;
  return Number(`${process.pid % 1000}${String(sequence).padStart(6, '0')}`);
};

export async function startHarness(): Promise<Harness> {
  const service = await startTestService(chatHistoryService, loadChatHistoryConfig);
  const { config } = service.deps;
  const adminToken = signAccessToken({ sub: '1', role: 'admin', ver: 0 }, config.JWT_SECRET);
  const admin = { authorization: `Bearer ${adminToken}` };
  const bot = { 'x-bot-key': config.BOT_API_KEY };

  const request = async <T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T,
    };
  };

  const harness: Harness = {
    service,
    url: service.url,
    admin,
    bot,
    async deliver(type, data, options = {}) {
      const event = createEvent(type, 'auth', data, options);
      const acked = service.deps.bus.waitFor('acked', (e) => e.id === event.id);
      await publishRaw(config.AMQP_EXCHANGE, type, event);
      await acked;
    },
    async deliverRaw(type, body) {
      await publishRaw(config.AMQP_EXCHANGE, type, body);
    },
    async registerUser(overrides = {}) {
      const n = nextNumber();
      const data: UserRegisteredData = {
        user_id: n,
        email: `user${n}@example.com`,
        role: 'user',
        username: `user${n}`,
        first_name: `Имя${n}`,
        last_name: `Фамилия${n}`,
        telegram_id: 7_000_000_000 + n,
        telegram_username: `tg${n}`,
        telegram_email: null,
        utm_source: null,
        referral_code: null,
        referred_by: null,
        created_at: new Date().toISOString(),
        version: 0,
        source: 'telegram',
        ...overrides,
      };
      await harness.deliver('user.registered', data);
      return data;
    },
    async createModel(overrides = {}) {
      const res = await request<{ model: AiModel }>(
        'POST',
        '/api/admin/models',
        {
          model: `model-${nextNumber()}`,
          description: 'Тестовая модель',
          input_price_per_1m: '2.500000',
          output_price_per_1m: '10.000000',
          is_active: true,
          ...overrides,
        },
        admin,
      );
      if (res.status !== 201) throw new Error(`createModel: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.model;
    },
    async recordMessage(body) {
      const res = await request<HistoryMessage>(
        'POST',
        '/api/bot/messages',
        { user_message: 'Привет', bot_response: 'Здравствуйте', input_tokens: 10, output_tokens: 20, ...body },
        bot,
      );
      if (res.status !== 201) throw new Error(`recordMessage: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    get: (path, headers = admin) => request('GET', path, undefined, headers),
    send: (method, path, body, headers = admin) => request(method, path, body, headers),
    close: () => service.stop(),
  };
  return harness;
}
