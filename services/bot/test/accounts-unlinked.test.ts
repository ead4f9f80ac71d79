import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chatsRepository } from '../src/data/chats.repository';
import { startBotHarness, type BotHarness } from './support/harness';
import { botSays, telegramUser } from './support/telegram-users';

/** The site account let go of its Telegram account (auth's accounts.unlinked). */
let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());

describe('accounts.unlinked', () => {
  test('the chat belongs to the new Telegram-only account from now on, and the user is told', async () => {
    const user = telegramUser();
    bot.telegram.sendCommand(user, '/start');
    await botSays(bot.telegram, user.id, 'Здравствуйте');
    const siteAccountId = bot.services.account(user.id).user.id;
    await chatsRepository(bot.bot.deps.db).repoint(user.id, siteAccountId);
    const newAccountId = siteAccountId + 100_000;

    const mark = bot.telegram.calls.length;
    await bot.deliver('accounts.unlinked', {
      user_id: siteAccountId,
      telegram_id: user.id,
      telegram_user_id: newAccountId,
      unlinked_at: new Date().toISOString(),
    });

    await botSays(bot.telegram, user.id, 'Telegram отвязан от аккаунта на сайте', mark);
    expect(await chatsRepository(bot.bot.deps.db).find(user.id)).toMatchObject({
      userId: newAccountId,
      webLinked: false,
    });
  });
});
