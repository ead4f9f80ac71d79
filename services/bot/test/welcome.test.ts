import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { botSays, telegramUser } from './support/telegram-users';
import { startBotHarness, type BotHarness } from './support/harness';

/** The welcome grant as a newcomer meets it in the bot (billing's one grant per person is billing's test). */
let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness();
  bot.services.welcomeCredits = 2000;
});
afterAll(() => bot?.close());

function start(user: ReturnType<typeof telegramUser>) {
  const mark = bot.telegram.calls.length;
  bot.telegram.sendCommand(user, '/start');
  return botSays(bot.telegram, user.id, 'Здравствуйте', mark);
}

describe('/start of a new person', () => {
  test('then the welcome says how many free credits were given and roughly how many messages they buy', async () => {
    const user = telegramUser();
    const welcome = await start(user);
    const text = String(welcome.params.text);
    // 500 + 500 tokens of gpt-4o-mini cost ⌈0.000375 $ × 95 × 2 × 100⌉ = 8 credits: 2 000 / 8 = 250 messages.
    // Numbers are grouped as in Russian, with a no-break space.
    expect(text).toContain('🎁 Вам в подарок <b>2\u00a0000 кредитов</b>.');
    expect(text).toContain('Сообщений с моделью gpt-4o-mini на них: примерно <b>250</b>.');
    expect(text).toContain('Доступно: <b>2\u00a0000 кредитов</b>');
  });

  test('when a returning user sends /start again, then the welcome does not offer the gift again', async () => {
    const user = telegramUser();
    expect(String((await start(user)).params.text)).toContain('🎁 Вам в подарок');
    const again = String((await start(user)).params.text);
    expect(again).toContain('Здравствуйте');
    expect(again).not.toContain('Вам в подарок');
    expect(again).toContain('Доступно: <b>2\u00a0000 кредитов</b>');
  });
});
