import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { freePort } from '@gpt/kit/testing';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * Webhook mode: Telegram posts updates to the bot's webhook, which checks its secret (the gateway
 * only passes the route on, as it does every route of the contracts).
 */
let bot: BotHarness;
let webhookUrl: string;
const SECRET = 'webhook-secret-0123456789';

beforeAll(async () => {
  const port = await freePort();
  webhookUrl = `http://127.0.0.1:${port}/api/telegram/webhook`;
  bot = await startBotHarness({
    PORT: String(port),
    TELEGRAM_WEBHOOK_URL: webhookUrl,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
  });
  bot.services.welcomeCredits = 100_000;
});
afterAll(() => bot?.close());

const { say, reply } = conversations(() => bot);

/** Posts an update to the webhook as Telegram does, with this secret header (none: without it). */
const post = (update: unknown, secret?: string) =>
  fetch(webhookUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(secret ? { 'X-Telegram-Bot-Api-Secret-Token': secret } : {}) },
    body: JSON.stringify(update),
  });

test('the bot sets its webhook with the secret and answers the updates Telegram posts to it', async () => {
  await bot.telegram.waitFor(
    'setWebhook',
    (call) => call.params.url === webhookUrl && call.params.secret_token === SECRET,
  );
  const user = { id: 8_100_001, first_name: 'Пётр', username: 'petr_webhook' };
  await reply(user, 'Здравствуйте, Пётр', say(user, '/start'));
  expect(bot.telegram.calls.some((call) => call.method === 'getUpdates')).toBe(false);
});

test('an update without the right secret header is refused and never handled', async () => {
  const update = {
    update_id: 999_001,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 8_100_001, type: 'private', first_name: 'Пётр' },
      from: { id: 8_100_001, is_bot: false, first_name: 'Пётр' },
      text: '/help',
      entities: [{ type: 'bot_command', offset: 0, length: 5 }],
    },
  };
  for (const secret of [undefined, 'wrong-secret-0123456789', `${SECRET}x`]) {
    const res = await post(update, secret);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'Неверный секрет вебхука' });
  }
  expect((await post(update, SECRET)).status).toBe(200);
  await reply({ id: 8_100_001, first_name: 'Пётр' }, 'Что я умею', 0);
  const helps = bot.telegram.calls.filter(
    (call) => call.method === 'sendMessage' && String(call.params.text).includes('Что я умею'),
  );
  expect(helps).toHaveLength(1);
});

test('Telegram gets its 200 at once: a slow answer is handled after the webhook has answered', async () => {
  const user = { id: 8_100_002, first_name: 'Ольга' };
  await reply(user, 'Здравствуйте, Ольга', say(user, '/start'));
  const update = {
    update_id: 999_002,
    message: {
      message_id: 2,
      date: Math.floor(Date.now() / 1000),
      chat: { id: user.id, type: 'private', first_name: user.first_name },
      from: { id: user.id, is_bot: false, first_name: user.first_name },
      text: 'Сказка',
    },
  };
  const answered = (mark: number) =>
    bot.telegram.calls
      .slice(mark)
      .some((call) => call.method === 'editMessageText' && call.params.text === 'Ответ на: Сказка');
  bot.openai.slow(500);
  try {
    const mark = bot.telegram.calls.length;
    expect((await post(update, SECRET)).status).toBe(200);
    // The model takes seconds to stream the answer: the webhook answered before it was written.
    expect(answered(mark)).toBe(false);
    await reply(user, 'Ответ на: Сказка', mark, 30_000);
  } finally {
    bot.openai.slow(0);
  }
});
