import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { startTestStack, type TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import type { Browser } from 'playwright-core';
import { MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';

/** «Начать бесплатно» on the landing page leads to an account with the welcome grant (welcome_credits as seeded). */
let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(MANY_USERS_ENV), launchChromium()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('the welcome grant in the personal account', () => {
  test('«Начать бесплатно» → register → the account shows 2 000 free credits, about 250 messages of gpt-4o-mini', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${stack.url}/`);
    await page.getByRole('link', { name: 'Начать бесплатно' }).first().click();
    await page.waitForURL(`${stack.url}/register`);
    await page.getByLabel('Email').fill(`${uniqueName('newcomer')}@example.com`);
    await page.getByLabel('Пароль', { exact: true }).fill('password1');
    await page.getByLabel('Подтверждение пароля').fill('password1');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);

    // The grant arrives moments after sign-up; the account picks it up without a reload.
    const item = (label: string) => page.locator('.info-item').filter({ hasText: new RegExp(`^${label}`) });
    await item('Приветственные кредиты').getByText('2 000 кредитов в подарок').waitFor();
    // 500 + 500 tokens of gpt-4o-mini cost 8 credits: 2 000 / 8 = 250.
    await page.getByTestId('welcome-messages').getByText('примерно 250 сообщений с моделью gpt-4o-mini').waitFor();
    await item('Доступно').getByText('2 000 кредитов').waitFor();
    await item('Кредиты').getByText('2 000', { exact: true }).waitFor();
    await screenshot(page, 'welcome-dashboard');
    await page.close();
  }, 60_000);
});
