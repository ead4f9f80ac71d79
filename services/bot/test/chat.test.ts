import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  balanceOf,
  botSays,
  charged,
  deposit,
  startBotStack,
  telegramUser,
  userIdOf,
  type BotStack,
} from './support/bot-stack';

/** Conversations with the bot through a fake Telegram and a fake model API, on the whole real product. */
let bot: BotStack;

beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());

interface HistoryRow {
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
}

async function historyOf(userId: number): Promise<HistoryRow[]> {
  const res = await bot.api<{ history: HistoryRow[] }>('GET', `/api/admin/history?userId=${userId}&limit=50`, {
    token: bot.adminToken,
  });
  return res.body.history;
}

/** A user who pressed /start and was given credits. */
async function startedUser(credits: number) {
  const user = telegramUser();
  bot.telegram.sendCommand(user, '/start');
  await botSays(bot.telegram, user.id, 'Здравствуйте');
  const userId = await userIdOf(bot, user.id);
  if (credits > 0) await deposit(bot, userId, credits);
  return { user, userId };
}

describe('/start', () => {
  test('registers the user with the payload as UTM source and welcomes them with balance, tariff and buttons', async () => {
    const user = telegramUser({ first_name: 'Анна' });
    bot.telegram.sendCommand(user, '/start utm_vk_spring');
    const welcome = await botSays(bot.telegram, user.id, 'Здравствуйте, Анна');
    expect(String(welcome.params.text)).toMatch(/Доступно: <b>0 кредитов<\/b>/);
    expect(String(welcome.params.text)).toContain('Тариф: <b>Base</b>');
    const keyboard = JSON.stringify(welcome.params.reply_markup);
    for (const label of ['Модель', 'Баланс', 'Пополнить', 'Сайт']) expect(keyboard).toContain(label);

    const users = await bot.api<{ users: { utm_source: string | null; username: string | null }[] }>(
      'GET',
      `/api/admin/users?username=${user.username}`,
      { token: bot.adminToken },
    );
    expect(users.body.users).toEqual([
      expect.objectContaining({ utm_source: 'utm_vk_spring', username: user.username }),
    ]);
  });
});

describe('a text message', () => {
  test('is answered by the model, streamed into a placeholder, recorded with its real usage and charged', async () => {
    const { user, userId } = await startedUser(100_000);
    bot.openai.slow(30);
    bot.openai.reply(() => 'Раз два три четыре пять шесть семь восемь девять десять');
    bot.telegram.sendText(user, 'Посчитай до десяти');

    const final = await botSays(bot.telegram, user.id, /^Раз два три четыре пять шесть семь восемь девять десять$/);
    bot.openai.slow(0);
    expect(final.method).toBe('editMessageText');
    const placeholder = bot.telegram.calls.find(
      (call) => call.method === 'sendMessage' && call.params.chat_id === user.id && call.params.text === '⏳ Думаю…',
    );
    expect(placeholder).toBeDefined();
    const edits = bot.telegram.calls.filter(
      (call) => call.method === 'editMessageText' && call.params.chat_id === user.id,
    );
    expect(edits.length).toBeGreaterThanOrEqual(2);

    const request = bot.openai.requests.at(-1)!;
    expect(request.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });

    await charged(bot, userId);
    const rows = await historyOf(userId);
    expect(rows).toEqual([
      expect.objectContaining({ status: 'success', user_message: 'Посчитай до десяти', model: 'gpt-4o-mini' }),
    ]);
    expect(rows[0]!.input_tokens).toBeGreaterThan(0);
    expect(rows[0]!.cost).toBeGreaterThan(0);
    const after = await balanceOf(bot, user.id);
    expect(after.held_credits).toBe(0);
    expect(after.available_credits).toBe(100_000 - rows[0]!.cost);
  });
});
