import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { setWelcomeCredits, type TestStack } from '@gpt/deploy/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot, seriousAxeViolations } from '../support/browser';
import { registeredPayer, storeSession } from '../support/payers';
import { latinOnlyWords } from '../support/screens';
import { startSelfAddressedStack } from '../support/site';
import { Tab } from '../support/tab';

/** The personal account's payment history, the purchase confirmation and the Telegram link dialog. */
const BOT_NAME = 'gpt_payments_test_bot';

let stack: TestStack;
let browser: Browser;
const tab = new Tab(
  () => browser,
  () => stack.url,
);
let page: Page;

beforeAll(async () => {
  stack = await startSelfAddressedStack({
    ...MANY_USERS_ENV,
    RATE_LIMIT_PAYMENT_POINTS: '1000',
    TELEGRAM_BOT_USERNAME: BOT_NAME,
  });
  await setWelcomeCredits(stack, 0);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

async function openAs(session: { token: string; user: unknown }, width: number) {
  page = await tab.open({ width, height: 900 });
  page.setDefaultTimeout(15_000);
  await storeSession(page, stack.url, session);
  return page;
}

async function topUp(token: string, amount: string) {
  const res = await api('POST', '/api/billing/payments', { token, body: { amount } });
  expect(res.status).toBe(201);
}

const history = () => page.getByTestId('payment-history');

/** The page speaks Russian and has no serious or critical axe violation. */
async function expectReadable() {
  await expect(latinOnlyWords(page)).resolves.toEqual([]);
  await expect(seriousAxeViolations(page)).resolves.toEqual([]);
}
const rows = () => page.getByTestId('payment-row');

describe('the personal account’s payment history', () => {
  test('newest first, ten a page with a pager; another user’s payments never show', async () => {
    const payer = await registeredPayer(stack);
    const other = await registeredPayer(stack);
    await topUp(other.token, '999');
    for (let i = 1; i <= 12; i += 1) await topUp(payer.token, String(100 + i));

    for (const width of [390, 1280]) {
      await openAs(payer, width);
      await page.goto(`${stack.url}/dashboard`);
      await rows().first().waitFor();
      await expect(rows().count()).resolves.toBe(10);
      await expect(rows().first().textContent()).resolves.toContain('112,00');
      await expect(history().getByText('Ожидает оплаты').first().isVisible()).resolves.toBe(true);
      await expect(history().getByText('999,00').count()).resolves.toBe(0);
      await expect(page.getByTestId('payments-page').textContent()).resolves.toBe('Страница 1 из 2');
      await history().scrollIntoViewIfNeeded();
      await screenshot(page, `account-payment-history-${width}`);
      await expectReadable();
      if (width === 390) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    }

    const answered = page.waitForResponse((res) => res.url().includes('/api/billing/payments?page=2'));
    await page.getByRole('button', { name: 'Вперёд →' }).click();
    await answered;
    await rows().filter({ hasText: '101,00' }).waitFor();
    await expect(rows().count()).resolves.toBe(2);
    await expect(page.getByTestId('payments-page').textContent()).resolves.toBe('Страница 2 из 2');
  });

  test('payments that fit one page still have the pager: «Страница 1 из 1», both buttons disabled', async () => {
    const payer = await registeredPayer(stack);
    for (const amount of ['150', '250', '350']) await topUp(payer.token, amount);
    await openAs(payer, 1280);
    await page.goto(`${stack.url}/dashboard`);
    await rows().filter({ hasText: '150,00' }).waitFor();
    await expect(rows().count()).resolves.toBe(3);
    await expect(page.getByTestId('payments-page').textContent()).resolves.toBe('Страница 1 из 1');
    const pager = page.getByRole('navigation', { name: 'Страницы' });
    await expect(pager.getByRole('button', { name: '← Назад' }).isDisabled()).resolves.toBe(true);
    await expect(pager.getByRole('button', { name: 'Вперёд →' }).isDisabled()).resolves.toBe(true);
    await pager.scrollIntoViewIfNeeded();
    await screenshot(page, 'account-payment-history-one-page');
  });

  test('a user with no payments reads so, with no pager; a failed load says so with «Повторить»', async () => {
    const newcomer = await registeredPayer(stack);
    await openAs(newcomer, 1280);
    await page.route('**/api/billing/payments?*', (route) => route.fulfill({ status: 503, body: '{}' }));
    await page.goto(`${stack.url}/dashboard`);
    await history().getByText('Не удалось загрузить платежи.').waitFor();
    await screenshot(page, 'account-payment-history-failed');

    await page.unroute('**/api/billing/payments?*');
    await history().getByRole('button', { name: 'Повторить' }).click();
    await history().getByText('Платежей пока нет.').waitFor();
    await expect(page.getByTestId('payments-page').count()).resolves.toBe(0);
  });
});

describe('buying a tariff on the tariffs page (/pricing)', () => {
  test('«Купить» shows what is bought, the price and the credits; «Отмена» does nothing, «Оплатить» goes to the payment', async () => {
    const buyer = await registeredPayer(stack);
    for (const width of [390, 1280]) {
      await openAs(buyer, width);
      await page.goto(`${stack.url}/pricing`);
      await page.getByRole('button', { name: 'Купить тариф Elite' }).click();
      const confirm = page.getByRole('dialog', { name: 'Покупка тарифа' });
      await confirm.getByText('Тариф «Elite» на 1 месяц.').waitFor();
      await expect(confirm.getByText('1 250,00 ₽').isVisible()).resolves.toBe(true);
      await expect(confirm.getByText('500 000 кредитов включено на месяц').isVisible()).resolves.toBe(true);
      await expect(confirm.getByText('400 кредитов за 1 ₽').isVisible()).resolves.toBe(true);
      await screenshot(page, `pricing-purchase-confirm-${width}`);
      await expectReadable();
      await confirm.getByRole('button', { name: 'Отмена' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(page.url()).toBe(`${stack.url}/pricing`);
    }
    const none = await api<{ total: number }>('GET', '/api/billing/payments', { token: buyer.token });
    expect(none.body.total).toBe(0);

    await page.getByRole('button', { name: 'Купить тариф Premium' }).click();
    await page.getByRole('dialog', { name: 'Покупка тарифа' }).getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL(/\/payment\/sandbox\//);
    await page.getByText('Тариф «Premium» на 1 месяц').waitFor();
    const created = await api<{ payments: { description: string }[] }>('GET', '/api/billing/payments', {
      token: buyer.token,
    });
    expect(created.body.payments.map((p) => p.description)).toEqual(['Тариф «Premium» на 1 месяц']);
  });

  test('a visitor is offered sign-up, not «Купить»', async () => {
    page = await tab.open();
    await page.goto(`${stack.url}/pricing`);
    await page.getByRole('link', { name: 'Выбрать тариф' }).first().waitFor();
    await expect(page.getByRole('button', { name: /Купить/ }).count()).resolves.toBe(0);
  });
});

describe('roubles to the kopeck', () => {
  test('a tariff priced 349,90 ₽ reads so on its card, in the purchase dialog and, once bought, in the account', async () => {
    const admin = await api<{ token: string }>('POST', '/api/auth/login', {
      body: { email: stack.admin.email, password: stack.admin.password },
    });
    const name = `Копейка${Date.now() % 100_000}`;
    const created = await api('POST', '/api/admin/tariffs', {
      token: admin.body.token,
      body: { name, description: 'Цена с копейками', monthly_price: '349.90', credits_per_ruble: 150 },
    });
    expect(created.status).toBe(201);
    const buyer = await registeredPayer(stack);
    await openAs(buyer, 1280);
    await page.goto(`${stack.url}/pricing`);
    const card = page.locator('.tariff-card').filter({ hasText: name });
    await card.getByText('349,90 ₽').waitFor();
    await card.getByRole('button', { name: `Купить тариф ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Покупка тарифа' });
    await confirm.getByText('349,90 ₽').waitFor();
    await confirm.getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL(/\/payment\/sandbox\//);
    await page.getByRole('button', { name: /Оплатить/ }).click();
    await page.getByText('Оплата прошла успешно').waitFor();
    await page.goto(`${stack.url}/dashboard`);
    const price = page.locator('.info-item').filter({ hasText: /^Стоимость/ });
    await price.getByText('349,90 ₽ / месяц').waitFor();
    await rows().filter({ hasText: 'Успешно' }).filter({ hasText: '349,90 ₽' }).waitFor();
  });
});

describe('linking Telegram from the personal account', () => {
  test('«Связать» opens the dialog whose button opens the bot’s /link on Telegram', async () => {
    const user = await registeredPayer(stack);
    for (const width of [1280, 390]) {
      await openAs(user, width);
      await page.goto(`${stack.url}/dashboard`);
      await page.getByRole('button', { name: 'Связать', exact: true }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: 'Связь с Telegram' });
      const bot = dialog.locator('a', { hasText: 'Открыть бота' });
      await expect(bot.getAttribute('href')).resolves.toBe(`https://t.me/${BOT_NAME}?start=link`);
      await expect(bot.getAttribute('target')).resolves.toBe('_blank');
      await screenshot(page, `account-telegram-dialog-${width}`);
    }
  });
});
