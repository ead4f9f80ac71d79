import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startBotStack, tariffId, type BotStack } from './support/bot-stack';
import { telegramUser } from './support/telegram-users';
import { conversations } from './support/conversation';

/** What the bot tells of tariffs and links comes from billing's tariffs and auth's settings, not from its texts. */
let bot: BotStack;

beforeAll(async () => {
  bot = await startBotStack({ LINK_TOKEN_TTL_MIN: '20' });
}, 90_000);
afterAll(() => bot?.close());

const { say, reply } = conversations(() => bot);

/** The admin edits a tariff as the tariffs screen does. */
async function editTariff(name: string, changes: { name?: string; can_generate_images?: boolean }) {
  const id = await tariffId(bot, name);
  const { body } = await bot.api<{ tariffs: Record<string, unknown>[] }>('GET', '/api/tariffs');
  const { id: _id, ...current } = body.tariffs.find((tariff) => tariff.id === id)!;
  const res = await bot.api('PUT', `/api/admin/tariffs/${id}`, {
    token: bot.adminToken,
    body: { ...current, is_active: true, ...changes },
  });
  expect(res.status).toBe(200);
}

describe('facts in what the bot says', () => {
  test('/link says how long the link lives as auth is configured', async () => {
    const user = telegramUser();
    const link = await reply(user, 'связать Telegram', say(user, '/link'));
    expect(String(link.params.text)).toContain('Ссылка действует 20 минут.');
  });

  test('the tariffs that draw images are named as billing has them after the admin edits them', async () => {
    await editTariff('Elite', { can_generate_images: false });
    await editTariff('Premium', { name: 'Премиум' });
    const user = telegramUser();

    const welcome = await reply(user, 'Здравствуйте', say(user, '/start'));
    expect(String(welcome.params.text)).toContain('команда /image (тариф Премиум)');

    const refusal = await reply(user, 'Генерация изображений доступна', say(user, '/image кот'));
    expect(String(refusal.params.text)).toContain('Генерация изображений доступна на тарифе Премиум.');
  });
});
