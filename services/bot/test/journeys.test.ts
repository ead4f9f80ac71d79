import { sandboxDecisionCall } from '@gpt/kit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { balanceOf, charged, historyOf, setting, startBotStack, tariffId, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';

/**
 * The bot's whole journey on the real product: /start with a UTM source, /buy, the sandbox
 * payment, «Оплата получена», a question, the admin's history and dashboard, /link to a site
 * account and the shared balance; and the low-balance alert.
 */
let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack();
}, 90_000);
afterAll(() => bot?.close());
afterEach(() => bot.openai.reply((messages) => `Ответ на: ${String(messages.at(-1)?.content)}`));

const { say, reply, press, payBy, buttonsOf, startedUser } = conversations(() => bot);

/** The payer confirms on the sandbox payment page. */
async function paySandbox(confirmationUrl: string) {
  const { path, body } = sandboxDecisionCall(confirmationUrl, 'succeeded');
  const res = await bot.api('POST', path, { body });
  expect(res.status).toBe(200);
}

describe('journey', () => {
  test('a command while the bot waits for the receipt e-mail is answered, and the e-mail is still taken after it', async () => {
    const { user } = await startedUser(0);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    await reply(user, 'Для чека нужен e-mail', await payBy(user, 'buy:topup:300'));
    await reply(user, 'Начали новый разговор', say(user, '/new'));
    await reply(user, /Пополнение баланса: \+30\s000 кредитов/, say(user, `u${user.id}@example.com`));
  });

  test('/start utm_x → /buy → sandbox payment → «Оплата получена» → question → history, dashboard → /link → one balance', async () => {
    const { user, userId } = await startedUser(0, { first_name: 'Мария' });
    await reply(user, 'Здравствуйте, Мария', say(user, '/start utm_x'));

    const offer = await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    const labels = buttonsOf(offer).map((button) => button.text);
    expect(labels).toEqual(
      expect.arrayContaining(['+100,00 ₽', '+300,00 ₽', 'Premium — 350,00 ₽', 'Elite — 1 250,00 ₽']),
    );
    // Each package and paid tariff can be paid in Telegram Stars or by card; a tariff also by a card that renews it.
    const ways = await reply(
      user,
      'Как оплатить?',
      press(user, 'Пополнение и тарифы', `pay:tariff:${await tariffId(bot, 'Elite')}`),
    );
    expect(String(ways.params.text)).toMatch(/Тариф «Elite» — 1\s250,00\s₽ в месяц/);
    expect(buttonsOf(ways).map((button) => button.text)).toEqual([
      '⭐ Оплатить звёздами',
      '💳 Картой',
      '🔁 Картой, продлевать автоматически',
    ]);

    // No e-mail known yet: the bot asks once, then sends the payment page.
    await reply(user, 'Для чека нужен e-mail', await payBy(user, 'buy:topup:100'));
    await reply(user, 'Это не похоже на e-mail', say(user, 'maria@'));
    const payment = await reply(
      user,
      /Пополнение баланса: \+10 000 кредитов\.\nСумма: 100,00 ₽/,
      say(user, 'maria@example.com'),
    );
    const [pay] = buttonsOf(payment);
    expect(pay).toMatchObject({ text: 'Оплатить 100,00 ₽' });
    const mark = bot.telegram.calls.length;
    await paySandbox(pay!.url!);
    await reply(user, 'Оплата получена: +10 000 кредитов', mark);

    // The next payment knows the e-mail: straight to the payment page.
    await reply(user, 'Сумма: 300,00 ₽', await payBy(user, 'buy:topup:300'));

    bot.openai.reply(() => 'Столица Франции — Париж.');
    await reply(user, /^Столица Франции — Париж\.$/, say(user, 'Столица Франции?'));
    await charged(bot, userId);
    const [row] = await historyOf(bot, userId);
    expect(row).toMatchObject({ user_message: 'Столица Франции?', bot_response: 'Столица Франции — Париж.' });
    expect(row!.cost).toBeGreaterThan(0);
    const stats = await bot.api<{ messagesToday: number; depositedToday: string }>('GET', '/api/admin/stats', {
      token: bot.adminToken,
    });
    expect(stats.body.messagesToday).toBeGreaterThanOrEqual(1);

    const users = await bot.api<{ users: { utm_source: string | null }[] }>(
      'GET',
      `/api/admin/users?username=${user.username}`,
      { token: bot.adminToken },
    );
    expect(users.body.users[0]?.utm_source).toBe('utm_x');

    // /link: the site's page with the token; a web account signs up and links.
    const linkMessage = await reply(user, 'связать Telegram с аккаунтом на сайте', say(user, '/link'));
    const linkUrl = buttonsOf(linkMessage)[0]!.url!;
    expect(linkUrl).toMatch(/\/link\/[\w-]+$/);
    const web = await bot.api<{ token: string }>('POST', '/api/auth/register', {
      body: { email: `maria.${user.id}@example.com`, password: 'password1' },
    });
    const linkMark = bot.telegram.calls.length;
    const linked = await bot.api('POST', '/api/auth/link', {
      token: web.body.token,
      body: { token: linkUrl.split('/').pop() },
    });
    expect(linked.status).toBe(200);
    await reply(user, 'Готово: Telegram связан с аккаунтом на сайте', linkMark);
    const auth = bot.stack.services.find((service) => service.name === 'auth')!;
    await auth.deps.bus.waitFor(
      'acked',
      (event) => event.type === 'credits.changed' && (event.data as { reason: string }).reason === 'merge',
    );

    const inBot = await balanceOf(bot, user.id);
    const profile = await bot.api<{ credits: number; available_credits: number; telegram_linked: boolean }>(
      'GET',
      '/api/auth/profile',
      { token: web.body.token },
    );
    expect(profile.body.telegram_linked).toBe(true);
    expect(profile.body.available_credits).toBe(inBot.available_credits);
    expect(inBot.available_credits).toBe(10_000 - row!.cost);
    await reply(user, 'Аккаунт связан с сайтом', say(user, '/balance'));
  });

  test('a tariff bought in the bot: its price and credits, the payment page, then «Оплата получена» with the tariff and its end', async () => {
    const { user } = await startedUser(0);
    await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
    const premium = await tariffId(bot, 'Premium');
    await reply(user, 'Для чека нужен e-mail', await payBy(user, `buy:tariff:${premium}`));
    const payment = await reply(
      user,
      /Тариф «Premium» на 1 месяц: \+70 000 кредитов сразу\.\nСумма: 350,00 ₽/,
      say(user, 'buyer@example.com'),
    );
    const mark = bot.telegram.calls.length;
    await paySandbox(buttonsOf(payment)[0]!.url!);
    await reply(user, /Оплата получена: тариф Premium до \d{1,2} \S+ \d{4} г\., \+70 000 кредитов\./, mark);
  });

  test('a charge below the threshold alerts once, with the top-up button; not again until the balance was above it', async () => {
    await setting(bot, 'low_balance_threshold', '1010');
    try {
      const { user, userId } = await startedUser(1010);
      await reply(user, 'Ответ на: первый', say(user, 'первый'));
      await charged(bot, userId);
      const alert = await reply(user, 'На балансе осталось', 0);
      expect(JSON.stringify(alert.params.reply_markup)).toContain('menu:buy');

      await reply(user, 'Ответ на: второй', say(user, 'второй'));
      await charged(bot, userId);
      await reply(user, 'Доступно', say(user, '/balance'));
      const alerts = bot.telegram
        .chatLog(user.id)
        .filter((entry) => entry.from === 'bot' && entry.text.startsWith('⚠️ На балансе осталось'));
      expect(alerts).toHaveLength(1);
    } finally {
      await setting(bot, 'low_balance_threshold', '500');
    }
  });
});
