import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { HistoryMessage } from '@gpt/contracts';
import { callApi, MANY_USERS_ENV, setWelcomeCredits, type TestStack } from '@gpt/deploy/testing';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, screenshot, screenshotDir, takingScreenshots } from '../support/browser';
import { startSelfAddressedStack } from '../support/site';

/**
 * One person's whole story through the built site behind the gateway, on the whole product:
 * a visitor reads and writes to us, registers from the bot's link, pays, talks to the bot, and
 * an admin follows them until the account is deleted. Each step builds on the one before.
 */

const BOT_KEY = TEST_SECRETS.BOT_API_KEY;
const NBSP = /[\u00a0\u202f]/g;

/** Every screen of docs/product.md, Screens, by the name of its screenshot (test-results/screenshots/journey-<name>.png). */
const SPEC_SCREENS = [
  'home',
  'pricing',
  'faq',
  'articles',
  'article',
  'offer',
  'privacy',
  'contact',
  'not-found',
  'login',
  'register',
  'link-success',
  'link-error',
  'dashboard',
  'admin-dashboard',
  'admin-users',
  'admin-articles',
  'admin-models',
  'admin-history',
  'admin-payments',
  'admin-sysvals',
  'admin-tariffs',
] as const;

let stack: TestStack;
let browser: Browser;
/** The visitor, later the signed-in user: one tab kept open from start to end. */
let visitor: BrowserContext;
let page: Page;
/** The admin, on a clock the test can move, so the dashboard's 10 s refresh is one step. */
let backOffice: BrowserContext;
let admin: Page;
const startedAt = Date.now();

const person = {
  email: `${uniqueName('journey')}@example.com`,
  password: 'journey-password1',
  telegramId: 6_000_000_000 + Math.floor(Math.random() * 1_000_000_000),
  username: uniqueName('tg_journey'),
  id: 0,
  token: '',
};
const model = uniqueName('gpt-journey');
const question = `Сколько стоит Premium? ${uniqueName('q')}`;

beforeAll(async () => {
  // No YooKassa keys: payments go through the sandbox provider's page on the site itself.
  [stack, browser] = await Promise.all([startSelfAddressedStack(MANY_USERS_ENV), launchChromium()]);
  // The journey counts the visitor's credits from 0: no welcome grant (welcome.e2e shows it).
  await setWelcomeCredits(stack, 0);
  visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  visitor.setDefaultTimeout(30_000);
  page = await visitor.newPage();
  backOffice = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  backOffice.setDefaultTimeout(30_000);
  await backOffice.clock.install();
  admin = await backOffice.newPage();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const api = <T = Record<string, unknown>>(method: string, url: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, url, options);

/** Resolves once the named service has published or processed (acked) an event of this type that matches. */
function busSaw(
  service: string,
  kind: 'published' | 'acked',
  type: string,
  match: (data: Record<string, unknown>) => boolean,
) {
  const { bus } = stack.services.find((s) => s.name === service)!.deps;
  return bus.waitFor(kind, (e) => e.type === type && match(e.data as Record<string, unknown>), 30_000);
}

/** The screens the journey reached and would show (its screenshots, when they are taken). */
const shown = new Set<string>();
const shot = (p: Page, name: string) => {
  shown.add(name);
  return screenshot(p, `journey-${name}`);
};
const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(NBSP, ' ');
/** The figure of the personal account's «Тариф и баланс» card with this label. */
const accountItem = (label: string) =>
  page.locator('.info-item').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });

/** Reloads the personal account and waits for this balance (the stored profile shows first, then the fresh one). */
async function reloadShowsCredits(credits: string) {
  await page.reload();
  await accountItem('Кредиты').getByText(credits, { exact: true }).waitFor();
}

const usersRow = () => admin.locator('table[aria-label="Пользователи"] tbody tr').filter({ hasText: person.email });
const sidebar = (entry: string) =>
  admin.getByRole('navigation', { name: 'Разделы админки' }).getByRole('link', { name: entry, exact: true });
const dialogTitled = (title: string) =>
  admin.locator('.modal-dialog').filter({ has: admin.getByRole('heading', { name: title, exact: true }) });

describe('a visitor becomes a customer, talks to the bot and is deleted by an admin', () => {
  test('the visitor reads the home page, pricing, FAQ, an article and the legal texts, then writes to us', async () => {
    await page.goto(`${stack.url}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Умный помощник');
    for (const plan of ['Base', 'Premium', 'Elite']) await page.getByRole('heading', { name: plan }).waitFor();
    await shot(page, 'home');

    const header = page.getByRole('navigation').first();
    await header.getByRole('link', { name: 'Тарифы' }).click();
    await page.waitForURL(`${stack.url}/pricing`);
    await page.getByText('500 000 кредитов в месяц, генерация изображений').waitFor();
    await expect(page.locator('.tariff-card').count()).resolves.toBe(3);
    await shot(page, 'pricing');

    await header.getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL(`${stack.url}/faq`);
    await page.getByRole('button', { name: 'Можно ли вернуть деньги?' }).waitFor();
    await shot(page, 'faq');

    await header.getByRole('link', { name: 'Статьи' }).click();
    await page.waitForURL(`${stack.url}/articles`);
    await page.locator('[data-testid="articles-results"][data-loaded=""]').waitFor();
    await shot(page, 'articles');
    await page.getByRole('link', { name: 'Тренды искусственного интеллекта' }).click();
    await page.waitForURL(`${stack.url}/articles/ai-trends`);
    await page.locator('.article-detail .article-body').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Тренды искусственного интеллекта',
    );
    await expect(page.locator('.article-detail').textContent()).resolves.toMatch(/1 просмотр/);
    await shot(page, 'article');

    const footer = page.locator('footer');
    await footer.getByRole('link', { name: 'Публичная оферта' }).click();
    await page.getByText('Последнее обновление: 26.06.2025').waitFor();
    await shot(page, 'offer');
    await footer.getByRole('link', { name: 'Согласие на обработку персональных данных' }).click();
    await page.getByText('№ 152-ФЗ «О персональных данных»').first().waitFor();
    await shot(page, 'privacy');

    await footer.getByRole('link', { name: 'Обратная связь' }).click();
    await page.waitForURL(`${stack.url}/contact`);
    const subject = `Вопрос о связке с ботом ${uniqueName('s')}`;
    await page.getByLabel('Telegram').fill(`@${person.username}`);
    await page.getByLabel('Тема').fill(subject);
    await page.getByLabel('Сообщение').fill('Как связать аккаунт сайта с ботом?');
    await page.getByRole('button', { name: 'Отправить' }).click();
    await page.getByText('Спасибо! Ваше сообщение отправлено.').waitFor();
    await expect(page.getByLabel('Тема').inputValue()).resolves.toBe('');
    await shot(page, 'contact');

    await page.goto(`${stack.url}/pricing/annual`);
    await page.getByRole('heading', { name: 'Страница не найдена' }).waitFor();
    await shot(page, 'not-found');
  });

  test('the bot’s link leads through login to registration; the new account lands linked to Telegram', async () => {
    const bot = await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: person.telegramId, username: person.username, first_name: 'Иван', last_name: 'Петров' },
    });
    expect(bot.status).toBe(200);
    const link = await api<{ url: string; token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: person.telegramId },
    });
    expect(link.status).toBe(201);
    expect(link.body.url).toBe(`${stack.url}/link/${link.body.token}`);

    await page.goto(link.body.url);
    await page.waitForURL(`${stack.url}/login?link_token=${link.body.token}`);
    await page.getByText('После входа вы увидите, какой аккаунт Telegram просит связки').waitFor();
    await shot(page, 'login');
    await page.getByRole('main').getByRole('link', { name: 'Зарегистрироваться' }).click();

    await page.waitForURL(`${stack.url}/register?link_token=${link.body.token}`);
    await page.getByText('После регистрации вы увидите, какой аккаунт Telegram просит связки').waitFor();
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Пароль', { exact: true }).fill(person.password);
    await page.getByLabel('Подтверждение пароля').fill(person.password);
    await page.getByRole('checkbox').check();
    await shot(page, 'register');
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();

    await page.waitForURL(`${stack.url}/link/${link.body.token}`);
    await page.getByTestId('link-telegram-account').getByText(`@${person.username}`).waitFor();
    await shot(page, 'link-confirm');
    await page.getByRole('button', { name: 'Связать' }).click();
    await page.waitForURL(`${stack.url}/link-success`);
    await page.getByRole('heading', { name: 'Аккаунты успешно связаны' }).waitFor();
    await shot(page, 'link-success');
    const session = await page.evaluate(() => ({
      token: localStorage.getItem('token') ?? '',
      id: Number((JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: number }).id),
    }));
    Object.assign(person, session);

    await page.getByRole('main').getByRole('link', { name: 'Личный кабинет' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    await accountItem('Статус').getByText('Связан', { exact: true }).waitFor();
    await expect(text(accountItem('Пользователь'))).resolves.toContain(`@${person.username}`);
    await expect(text(accountItem('Telegram ID'))).resolves.toContain(String(person.telegramId));

    // The link is single-use: following it again tells why it no longer works.
    await page.goto(link.body.url);
    await page.waitForURL(`${stack.url}/link-error?code=link_token_used`);
    await page.getByText('Ссылка уже использована. Получите новую ссылку в боте').waitFor();
    await shot(page, 'link-error');
  });

  test('the user tops up 150 ₽ through the sandbox payment page and sees 15 000 credits', async () => {
    // Billing must know the account (and that the Telegram one merged into it) before it takes money.
    await busSaw('billing', 'acked', 'user.registered', (d) => d.user_id === person.id);
    await busSaw('billing', 'acked', 'accounts.linked', (d) => d.user_id === person.id);

    await page.getByRole('link', { name: 'Личный кабинет' }).first().click();
    await page.waitForURL(`${stack.url}/dashboard`);
    const main = page.getByRole('main');
    await main.getByLabel('Сумма пополнения').fill('150');
    await main.getByText('Будет зачислено 15 000 кредитов').waitFor();
    await main.getByRole('button', { name: 'Пополнить' }).click();

    await page.waitForURL(/\/payment\/sandbox\//);
    await page.getByText('Пополнение баланса на 150,00\u00a0₽').waitFor();
    await shot(page, 'payment-sandbox');
    await page.getByRole('button', { name: /Оплатить/ }).click();
    await page.waitForURL(/\/payment\/result\?payment_id=/);
    await page.getByTestId('new-balance').getByText('15 000 кредитов').waitFor();
    await shot(page, 'payment-result');

    await page.getByRole('link', { name: 'В личный кабинет' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    await accountItem('Кредиты').getByText('15 000', { exact: true }).waitFor();
    await shot(page, 'dashboard');
  });

  test('a message the bot records shows on the admin dashboard within one refresh, in the history with its cost, and lowers the balance', async () => {
    await admin.goto(`${stack.url}/login`);
    await admin.getByLabel('Email').fill(stack.admin.email);
    await admin.getByLabel('Пароль').fill(stack.admin.password);
    await admin.getByRole('button', { name: 'Войти' }).click();
    await admin.waitForURL(`${stack.url}/dashboard`);
    await admin.getByRole('main').getByText('Администратор', { exact: true }).waitFor();
    await admin.getByRole('main').getByRole('link', { name: 'Админка' }).click();
    await admin.waitForURL(`${stack.url}/admin`);
    await admin.locator('[data-stat="depositedToday"]', { hasText: '150,00 ₽' }).waitFor();
    await expect(text(admin.locator('[data-stat="lastMessage.user_message"]'))).resolves.toBe('—');
    const adminToken = await admin.evaluate(() => localStorage.getItem('token') ?? '');

    // 1 200 tokens in at 2.5 $ and 450 out at 10 $ per million: 0.0075 $, which at 95 ₽/$, markup 2 and
    // 100 credits per rouble is 142.5, rounded up to 143 credits.
    const created = await api('POST', '/api/admin/models', {
      token: adminToken,
      body: { model, description: 'Модель для сквозного сценария', input_price_per_1m: 2.5, output_price_per_1m: 10 },
    });
    expect(created.status).toBe(201);
    await busSaw('chat-history', 'acked', 'accounts.linked', (d) => d.user_id === person.id);
    const recorded = await api<HistoryMessage>('POST', '/api/bot/messages', {
      botKey: BOT_KEY,
      body: {
        telegram_id: person.telegramId,
        model,
        user_message: question,
        bot_response: 'Premium стоит 350 ₽ в месяц.',
        input_tokens: 1200,
        output_tokens: 450,
      },
    });
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ user_id: person.id, total_cost: expect.stringMatching(/^0\.0075/) });
    expect(Number(recorded.body.cost)).toBe(143);

    // The dashboard was open before the message; once metrics has it, one refresh shows it.
    await busSaw('metrics', 'acked', 'message.recorded', (d) => d.message_id === recorded.body.id);
    await admin.clock.fastForward(10_000);
    await admin.locator('[data-stat="lastMessage.user_message"]', { hasText: question }).waitFor();
    await expect(text(admin.locator('[data-stat="lastMessage.username"]'))).resolves.toContain(person.username);
    await expect(text(admin.locator('[data-stat="lastMessage.total_cost"]'))).resolves.toBe('0,0075 $');
    await expect(text(admin.locator('[data-stat="messagesToday"]'))).resolves.toBe('1');
    await expect(text(admin.locator('[data-stat="spentToday"]'))).resolves.toBe('0,01 $');
    await shot(admin, 'admin-dashboard');

    await busSaw('auth', 'acked', 'credits.changed', (d) => d.reference === `message:${recorded.body.id}`);
    await reloadShowsCredits('14 857');

    await sidebar('Пользователи').click();
    await admin.waitForURL(`${stack.url}/admin/users`);
    await usersRow().filter({ hasText: '14 857' }).waitFor();
    await shot(admin, 'admin-users');
    await usersRow().getByRole('button', { name: 'История сообщений' }).click();
    await admin.waitForURL(`${stack.url}/admin/history?userId=${person.id}`);
    const row = admin.locator('table[aria-label="История сообщений"] tbody tr').filter({ hasText: question });
    await row.waitFor();
    await expect(text(row)).resolves.toMatch(/143 кр\.\s*0,0075 \$/);
    await expect(text(row)).resolves.toContain(`@${person.username}`);
    await expect(text(row)).resolves.not.toContain('Иван Петров');
    await shot(admin, 'admin-history');

    await row.getByRole('button', { name: 'Просмотр' }).click();
    const detail = dialogTitled('Сообщение');
    await detail.getByText('Общая стоимость').waitFor();
    await expect(text(detail)).resolves.toMatch(/Общая стоимость\s*0,0075 \$/);
    await expect(text(detail)).resolves.toMatch(/Кредиты\s*143/);
    await shot(admin, 'admin-history-detail');
    await detail.getByRole('button', { name: 'Закрыть' }).last().click();
    await detail.waitFor({ state: 'detached' });
  }, 90_000);

  test('the admin’s other screens: articles, models, payments, settings and tariffs', async () => {
    await sidebar('Статьи').click();
    await admin.getByRole('table', { name: 'Статьи' }).getByText('ai-trends').waitFor();
    await shot(admin, 'admin-articles');

    await sidebar('Модели').click();
    await admin.locator('table[aria-label="Модели"] tbody tr').filter({ hasText: model }).waitFor();
    await shot(admin, 'admin-models');

    await sidebar('Платежи').click();
    const payment = admin.locator('table[aria-label="Платежи"] tbody tr').filter({ hasText: '150,00' });
    await payment.getByText('Успешно').waitFor();
    await shot(admin, 'admin-payments');

    await sidebar('Настройки').click();
    await admin.locator('table[aria-label="Настройки"] tbody tr').filter({ hasText: 'credit_markup' }).waitFor();
    await shot(admin, 'admin-sysvals');

    await sidebar('Тарифы').click();
    await admin.locator('table[aria-label="Тарифы"] tbody tr').filter({ hasText: 'Elite' }).waitFor();
    await shot(admin, 'admin-tariffs');
  });

  test('the admin changes the tariff and adds credits, then deletes the account: the open session stops working', async () => {
    await sidebar('Пользователи').click();
    await usersRow().waitFor();
    await usersRow().getByRole('button', { name: 'Редактировать' }).click();
    const edit = dialogTitled('Редактировать пользователя');
    await edit.getByLabel('Тариф').selectOption({ label: 'Premium' });
    await edit.getByLabel('Пополнение кредитов').fill('500');
    await edit.getByLabel('Причина').fill('Компенсация');
    await shot(admin, 'admin-users-edit');
    await edit.getByRole('button', { name: 'Сохранить' }).click();
    await edit.waitFor({ state: 'detached' });
    await usersRow().filter({ hasText: 'Premium' }).filter({ hasText: '15 357' }).waitFor();

    // The user's open tab sees the change on its next load.
    await reloadShowsCredits('15 357');
    await accountItem('Тариф').getByText('Premium').waitFor();
    await shot(page, 'dashboard-premium');

    await usersRow().getByRole('button', { name: 'Удалить' }).click();
    const confirm = dialogTitled('Удаление пользователя');
    await expect(text(confirm)).resolves.toContain(`Вы действительно хотите удалить пользователя ${person.email}`);
    await shot(admin, 'admin-users-delete');
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await confirm.waitFor({ state: 'detached' });
    await usersRow().waitFor({ state: 'detached' });

    // The tab still open on the dashboard can no longer do anything with its session.
    const main = page.getByRole('main');
    await main.getByLabel('Сумма пополнения').fill('100');
    await main.getByRole('button', { name: 'Пополнить' }).click();
    await main.getByRole('alert').filter({ hasText: 'Сессия завершена, войдите снова' }).waitFor();
    await shot(page, 'dashboard-deleted');
    expect((await api('GET', '/api/auth/profile', { token: person.token })).status).toBe(401);

    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.goto(`${stack.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Пароль').fill(person.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('alert').filter({ hasText: 'Неверный email или пароль' }).waitFor();
  }, 90_000);

  test('every screen of docs/product.md, Screens was reached by this run (and captured, when screenshots are taken)', async () => {
    expect(SPEC_SCREENS.filter((screen) => !shown.has(screen))).toEqual([]);
    if (!takingScreenshots) return;
    for (const screen of SPEC_SCREENS) {
      const file = path.join(screenshotDir, `journey-${screen}.png`);
      const writtenAt = await stat(file).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      expect([screen, writtenAt >= startedAt]).toEqual([screen, true]);
    }
  });
});
