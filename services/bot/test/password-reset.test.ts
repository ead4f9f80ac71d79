import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startBotHarness, type BotHarness } from './support/harness';
import { botSays, telegramUser } from './support/telegram-users';

/**
 * Password recovery of a web account linked to Telegram: the link auth made also arrives in the
 * bot's chat (that it is the mailed link and works once is auth's test).
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
  url: `https://gpt.example.ru/reset-password/token-${telegramId}`,
  expires_at: '2026-03-02T09:30:00.000Z',
});

describe('password_reset.requested', () => {
  test('sends the linked user «Ссылка для смены пароля» with a button that opens the link', async () => {
    const user = telegramUser();
    bot.telegram.sendCommand(user, '/start');
    await botSays(bot.telegram, user.id, 'Здравствуйте');
    // The web account the Telegram account was linked to: its chat is found by the Telegram id.
    const event = resetRequested(bot.services.account(user.id).user.id + 1000, user.id);

    const mark = bot.telegram.calls.length;
    await bot.deliver('password_reset.requested', event);
    const sent = await botSays(bot.telegram, user.id, 'Ссылка для смены пароля', mark);

    expect(String(sent.params.text)).toContain('Действует до 12:30 (МСК) и срабатывает один раз.');
    expect(sent.params.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Сменить пароль', url: event.url }]] });
  });

  test('a Telegram user who never wrote to the bot gets nothing', async () => {
    const stranger = telegramUser();
    const mark = bot.telegram.calls.length;
    await bot.deliver('password_reset.requested', resetRequested(1, stranger.id));
    expect(bot.telegram.calls.slice(mark).filter((call) => Number(call.params.chat_id) === stranger.id)).toEqual([]);
  });
});
