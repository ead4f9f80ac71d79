import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { BOT_KEY, startBotStack, type BotStack } from './support/bot-stack';
import { botSays, telegramUser } from './support/telegram-users';

/** Password recovery of a web account linked to Telegram: the link also arrives in the bot's chat. */
let bot: BotStack;

beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());

describe('password_reset.requested', () => {
  test('sends the linked user «Ссылка для смены пароля» with a button that opens the working link', async () => {
    const user = telegramUser();
    bot.telegram.sendCommand(user, '/start');
    await botSays(bot.telegram, user.id, 'Здравствуйте');
    const email = `reset-${user.id}@example.com`;
    const web = await bot.api<{ token: string }>('POST', '/api/auth/register', {
      body: { email, password: 'old-password' },
    });
    const link = await bot.api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: user.id },
    });
    expect(
      (await bot.api('POST', '/api/auth/link', { token: web.body.token, body: { token: link.body.token } })).status,
    ).toBe(200);

    const mark = bot.telegram.calls.length;
    expect((await bot.api('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202);
    const sent = await botSays(bot.telegram, user.id, 'Ссылка для смены пароля', mark);

    expect(String(sent.params.text)).toMatch(/Действует до \d{2}:\d{2} \(МСК\) и срабатывает один раз/);
    const token = /\/reset-password\/([\w-]+)/.exec(JSON.stringify(sent.params))?.[1];
    expect(token).toBeDefined();
    const reset = await bot.api('POST', '/api/auth/password-reset/confirm', {
      body: { token, newPassword: 'new-password' },
    });
    expect(reset.status).toBe(200);
    const login = await bot.api('POST', '/api/auth/login', { body: { email, password: 'new-password' } });
    expect(login.status).toBe(200);
  });
});
