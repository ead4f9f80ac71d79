import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { UserSubscriptionsResponse } from '@gpt/contracts';
import { setWelcomeCredits, type TestStack } from '@gpt/deploy/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { registeredPayer, storeSession } from '../support/payers';
import { startSelfAddressedStack } from '../support/site';

let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // No YooKassa keys: the sandbox provider saves the card and charges it like YooKassa.
  stack = await startSelfAddressedStack(MANY_USERS_ENV);
  await setWelcomeCredits(stack, 0);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterEach(() => page.close());

describe('a tariff that renews itself', () => {
  test('«Продлевать автоматически» is not ticked; ticked, it shows the consent; paid, the account lists the subscription and cancels it in two clicks', async () => {
    const user = await registeredPayer(stack);
    await storeSession(page, stack.url, user);
    await page.goto(`${stack.url}/dashboard`);

    await page.getByRole('button', { name: 'Купить тариф Premium' }).click();
    const dialog = page.getByRole('dialog', { name: 'Покупка тарифа' });
    const tick = dialog.getByLabel('Продлевать автоматически');
    await tick.waitFor();
    await expect(tick.isChecked()).resolves.toBe(false);
    await tick.check();
    const consent = dialog.getByTestId('renewal-consent');
    await consent.getByText(/Следующее списание/).waitFor();
    await expect(consent.textContent()).resolves.toMatch(/350,00\s₽.*\/subscription/s);
    await screenshot(page, 'subscriptions-consent-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'subscriptions-consent-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await dialog.getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL(/\/payment\/sandbox\//);
    await page.getByRole('button', { name: /Оплатить/ }).click();
    await page.waitForURL(/\/payment\/result/);
    await page.getByText('Оплата прошла успешно').waitFor();

    await page.goto(`${stack.url}/dashboard`);
    const block = page.getByTestId('subscriptions');
    const row = block.getByTestId('subscription-row');
    await row.getByText('Продлевается').waitFor();
    await expect(row.textContent()).resolves.toMatch(
      /Тариф «Premium».*350,00\s₽ в месяц, карта •••• 4444.*Следующее списание/s,
    );
    await screenshot(page, 'subscriptions-dashboard-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByText('Продлевается').waitFor();
    await screenshot(page, 'subscriptions-dashboard-390');

    await row.getByRole('button', { name: 'Отменить автопродление' }).click();
    const confirm = page.getByRole('dialog', { name: 'Отменить автопродление' });
    await confirm.getByText(/Списаний больше не будет/).waitFor();
    await confirm.getByRole('button', { name: 'Отменить автопродление' }).click();
    await row.getByText('Автопродление отменено').waitFor();
    await expect(row.getByRole('button', { name: 'Отменить автопродление' }).count()).resolves.toBe(0);

    const listed = await callApi<UserSubscriptionsResponse>(stack.url, 'GET', '/api/billing/subscriptions', {
      token: user.token,
    });
    expect(listed.body.subscriptions).toMatchObject([{ status: 'canceled', card: '•••• 4444', next_charge_at: null }]);
  }, 90_000);
});
