import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startBotHarness, type BotHarness } from './support/harness';
import { botSays, telegramUser } from './support/telegram-users';

/**
 * Password recovery of a web account linked to Telegram: the chat is told that a link was mailed, and
 * gets the link itself only when the owner chose so on the site (auth then sends it in the event).
 */
let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());

/** Auth's event for web account `userId` linked to Telegram user `telegramId`, good until 12:30 in Moscow. */
const resetRequested = (userId: number, telegramId: number) => ({
  user_id: userId,
  telegram_id: telegramId,
  expires_at: '2026-03-02T09:30:00.000Z',
});

describe('password_reset.requested', () => {
  test('tells the linked user that a link went to the e-mail, with no link and no button', async () => {
    const user = telegramUser();
    bot.telegram.sendCommand(user, '/start');
    await botSays(bot.telegram, user.id, 'Здравствуйте');
    // The web account the Telegram account was linked to: its chat is found by the Telegram id.
    const event = resetRequested(bot.services.account(user.id).user.id + 1000, user.id);

    const mark = bot.telegram.calls.length;
    await bot.deliver('password_reset.requested', event);
    const sent = await botSays(bot.telegram, user.id, 'ссылка отправлена на e-mail аккаунта', mark);

    expect(String(sent.params.text)).toContain('действует до 12:30 (МСК) и срабатывает один раз.');
    expect(String(sent.params.text)).not.toContain('reset-password');
    expect(sent.params.reply_markup).toBeUndefined();
  });

  test('gives the link itself when the account’s owner chose to get reset links in Telegram', async () => {
    const user = telegramUser();
    bot.telegram.sendCommand(user, '/start');
    await botSays(bot.telegram, user.id, 'Здравствуйте');
    const url = 'https://gpt.example.ru/reset-password/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const event = { ...resetRequested(bot.services.account(user.id).user.id + 1000, user.id), reset_url: url };

    const mark = bot.telegram.calls.length;
    await bot.deliver('password_reset.requested', event);
    const sent = await botSays(bot.telegram, user.id, 'Задать новый пароль', mark);

    expect(String(sent.params.text)).toContain(url);
    expect(String(sent.params.text)).toContain('действует до 12:30 (МСК) и срабатывает один раз.');
  });

  test('a Telegram user who never wrote to the bot gets nothing', async () => {
    const stranger = telegramUser();
    const mark = bot.telegram.calls.length;
    await bot.deliver('password_reset.requested', resetRequested(1, stranger.id));
    expect(bot.telegram.calls.slice(mark).filter((call) => Number(call.params.chat_id) === stranger.id)).toEqual([]);
  });
});
