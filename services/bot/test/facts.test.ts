import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';
import { telegramUser } from './support/telegram-users';

/**
 * What the bot tells of tariffs and links comes from billing's tariffs and auth's link tokens, not
 * from its texts (that an admin's edit shows in billing's list at once is billing's test).
 */
let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());

const { say, reply } = conversations(() => bot);

describe('facts in what the bot says', () => {
  test('/link says how long the link lives as auth answers it', async () => {
    bot.services.linkMinutes = 20;
    const user = telegramUser();
    const link = await reply(user, 'связать Telegram', say(user, '/link'));
    expect(String(link.params.text)).toContain('Ссылка действует 20 минут.');
  });

  test('/link sends auth the Telegram account’s newest profile photo, for the link page; none without one', async () => {
    const pictured = telegramUser();
    bot.telegram.setProfilePhoto(pictured.id, Buffer.from('old face'));
    bot.telegram.setProfilePhoto(pictured.id, Buffer.from('new face'));
    await reply(pictured, 'связать Telegram', say(pictured, '/link'));
    expect(bot.services.linkPhotos.get(pictured.id)).toBe(
      `data:image/jpeg;base64,${Buffer.from('new face').toString('base64')}`,
    );

    const plain = telegramUser();
    await reply(plain, 'связать Telegram', say(plain, '/link'));
    expect(bot.services.linkPhotos.get(plain.id)).toBeNull();
  });

  test('the tariffs that draw images are named as billing has them after the admin edits them', async () => {
    const tariff = (name: string) => bot.services.tariffRows.find((row) => row.name === name)!;
    tariff('Elite').can_generate_images = false;
    tariff('Premium').name = 'Премиум';
    const user = telegramUser();

    const welcome = await reply(user, 'Здравствуйте', say(user, '/start'));
    expect(String(welcome.params.text)).toContain('команда /image (тариф Премиум)');

    const refusal = await reply(user, 'Генерация изображений доступна', say(user, '/image кот'));
    expect(String(refusal.params.text)).toContain('Генерация изображений доступна на тарифе Премиум.');
  });
});
