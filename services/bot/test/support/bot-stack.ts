import { startTestStack, callApi, MANY_USERS_ENV, setWelcomeCredits, type TestStack } from '@gpt/deploy/testing';
import type { Env } from '@gpt/kit';
import { TEST_SECRETS } from '@gpt/kit/testing';
import type { FakeTelegram } from '@gpt/telegram-sandbox/testing';
import type { FakeOpenAI } from './fake-openai';
import { startOutsideParties } from './outside-parties';

export interface BotStack {
  stack: TestStack;
  telegram: FakeTelegram;
  openai: FakeOpenAI;
  adminToken: string;
  /** Calls the product's API through the gateway. */
  api: <T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: Parameters<typeof callApi>[3],
  ) => ReturnType<typeof callApi<T>>;
  close(): Promise<void>;
}

/**
 * The whole product on real PostgreSQL, RabbitMQ and Redis, with the bot talking to a fake
 * Telegram Bot API and a fake OpenAI-compatible model API on localhost. New users get
 * `welcomeCredits` (0 unless told: the suites count a user's credits from what they deposit).
 */
export async function startBotStack(env: Env = {}, { welcomeCredits = 0 } = {}): Promise<BotStack> {
  const { telegram, openai, env: outside } = await startOutsideParties();
  const stack = await startTestStack({ ...MANY_USERS_ENV, ...outside, ...env });
  await setWelcomeCredits(stack, welcomeCredits);
  const api: BotStack['api'] = (method, path, options) => callApi(stack.url, method, path, options);
  const login = await api<{ token: string }>('POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  return {
    stack,
    telegram,
    openai,
    adminToken: login.body.token,
    api,
    async close() {
      await stack.close();
      await Promise.all([telegram.close(), openai.close()]);
    },
  };
}

export const BOT_KEY = TEST_SECRETS.BOT_API_KEY;

/** Our user id of a Telegram user (auth's bot upsert is idempotent and answers it). */
export async function userIdOf(bot: BotStack, telegramId: number): Promise<number> {
  const res = await bot.api<{ id: number }>('POST', '/api/bot/users', {
    botKey: BOT_KEY,
    body: { telegram_id: telegramId },
  });
  return res.body.id;
}

/** An admin deposit of credits, as the admin users screen makes it. */
export async function deposit(bot: BotStack, userId: number, credits: number): Promise<void> {
  const res = await bot.api('PUT', `/api/admin/users/${userId}`, {
    token: bot.adminToken,
    body: { depositAmount: credits },
  });
  if (res.status !== 200) throw new Error(`deposit failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Resolves once billing has charged (or settled) a message recorded for this user. */
export function charged(bot: BotStack, userId: number) {
  const billing = bot.stack.services.find((service) => service.name === 'billing')!;
  return billing.deps.bus.waitFor(
    'acked',
    (event) => event.type === 'message.recorded' && (event.data as { user_id: number }).user_id === userId,
    20_000,
  );
}

/** The bot's view of a balance. */
export async function balanceOf(bot: BotStack, telegramId: number) {
  const res = await bot.api<{
    credits: number;
    included_credits: number;
    held_credits: number;
    available_credits: number;
  }>('GET', `/api/bot/balance?telegram_id=${telegramId}`, { botKey: BOT_KEY });
  return res.body;
}

export interface HistoryRow {
  id: number;
  user_id: number;
  model: string;
  status: string;
  user_message: string;
  bot_response: string | null;
  input_tokens: number;
  output_tokens: number;
  cost: number;
  image_path: string | null;
  mode: string | null;
  audio_seconds: number;
  transcription_cost: string;
  speech_characters: number;
  speech_cost: string;
}

/** The admin history of a user, newest first. */
export async function historyOf(bot: BotStack, userId: number): Promise<HistoryRow[]> {
  const res = await bot.api<{ history: HistoryRow[] }>('GET', `/api/admin/history?userId=${userId}&limit=50`, {
    token: bot.adminToken,
  });
  return res.body.history;
}

/** Changes a system setting as the admin does. */
export async function setting(bot: BotStack, key: string, value: string) {
  const res = await bot.api('PUT', `/api/admin/sys_vals/${key}`, { token: bot.adminToken, body: { value } });
  if (res.status !== 200) throw new Error(`setting ${key} failed: ${res.status}`);
}

/** The id of a tariff by its name. */
export async function tariffId(bot: BotStack, name: string): Promise<number> {
  const res = await bot.api<{ tariffs: { id: number; name: string }[] }>('GET', '/api/tariffs');
  return res.body.tariffs.find((tariff) => tariff.name === name)!.id;
}

/** Puts a user on a tariff, as the admin users screen does. */
export async function setTariff(bot: BotStack, userId: number, name: string): Promise<void> {
  const res = await bot.api('PUT', `/api/admin/users/${userId}`, {
    token: bot.adminToken,
    body: { tariff_id: await tariffId(bot, name) },
  });
  if (res.status !== 200) throw new Error(`tariff change failed: ${res.status} ${JSON.stringify(res.body)}`);
}
