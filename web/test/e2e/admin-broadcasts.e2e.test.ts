import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { startTestStack, type TestStack } from '@gpt/deploy/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';

/** The admin «Рассылки» (docs/bot.md, Broadcasts), at 1 280 and 390 px. */
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await startTestStack({ ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1', RATE_LIMIT_LOGIN_POINTS: '1000' });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});
afterEach(() => page.close());

async function signedIn(width: number, email: string, password: string) {
  page = await browser.newPage({ viewport: { width, height: 900 } });
  const login = await callApi<{ token: string; user: unknown }>(stack.url, 'POST', '/api/auth/login', {
    body: { email, password },
  });
  await storeSession(page, stack.url, login.body);
}

const history = () => page.locator('table[aria-label="История рассылок"] tbody tr');

describe.each([1280, 390])('at %i px', (width) => {
  beforeEach(() => signedIn(width, stack.admin.email, stack.admin.password));

  test('compose with a preview as Telegram shows it and the recipients counted, start it, watch it end in the history; schedule one, pause, resume and cancel it', async () => {
    await page.goto(`${stack.url}/admin`);
    if (width < 992) await page.getByRole('button', { name: 'Открыть меню' }).click();
    await page.getByRole('link', { name: 'Рассылки' }).click();
    await page.waitForURL(/\/admin\/broadcasts$/);
    await page.getByText('Получателей сейчас:').waitFor();

    const text = `**Новая модель** уже в боте — [подробнее](https://example.com/news) ${width}`;
    await page.getByLabel('Текст').fill(text);
    await page.getByLabel('Кнопка').selectOption('top_up');
    const preview = page.getByLabel('Предпросмотр сообщения');
    await preview.locator('b', { hasText: 'Новая модель' }).waitFor();
    await expect(preview.locator('a').getAttribute('href')).resolves.toBe('https://example.com/news');
    await expect(preview.textContent()).resolves.toContain('Новости и акции');
    await expect(preview.textContent()).resolves.toContain('Пополнить');

    await page.getByLabel('UTM-метка').fill(`nobody-${width}`);
    await page.getByText('Получателей сейчас: 0').waitFor();
    await page.getByLabel('Доступно меньше, кредитов').fill('-1');
    await page.getByText(/Баланс ниже: не меньше 1 кредита/).waitFor();
    await page.getByLabel('Доступно меньше, кредитов').fill('');
    await page.getByText('Получателей сейчас: 0').waitFor();
    await screenshot(page, `admin-broadcasts-compose-${width}`);

    await page.getByRole('button', { name: 'Отправить мне' }).click();
    await page.getByText(/привяжите свой Telegram/).waitFor();

    await page.getByRole('button', { name: 'Запустить рассылку' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Получателей сейчас: 0').waitFor();
    await dialog.getByRole('button', { name: 'Запустить' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = history()
      .filter({ hasText: `${width}` })
      .first();
    await row.getByText('Завершена').waitFor({ timeout: 20_000 });
    await expect(row.textContent()).resolves.toContain(stack.admin.email);

    await page.getByLabel('Текст').fill(`Запланированная ${width}`);
    await page.getByLabel('В назначенное время (МСК)').check();
    await page.getByLabel('Дата и время отправки по Москве').fill('2030-01-01T10:00');
    await page.getByRole('button', { name: 'Запланировать' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Запланировать' }).click();
    const planned = history().filter({ hasText: `Запланированная ${width}` });
    await planned.getByText('01.01.2030, 10:00 МСК').waitFor();
    await planned.getByRole('button', { name: 'Пауза' }).click();
    await planned.getByText('На паузе').waitFor();
    await screenshot(page, `admin-broadcasts-history-${width}`);
    await planned.getByRole('button', { name: 'Продолжить' }).click();
    await planned.getByText('Запланирована').waitFor();
    await planned.getByRole('button', { name: 'Отменить' }).click();
    await planned.getByText('Отменена').waitFor();
  });
});
