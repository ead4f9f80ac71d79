import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { signUp, type TestStack } from '@gpt/deploy/testing';
import { type FakeMailbox, startFakeMailbox } from '@gpt/kit/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { startSelfAddressedStack } from '../support/site';

/** Password recovery as a visitor meets it: the login page, the mail on a real SMTP server, the link. */
let mailbox: FakeMailbox;
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mailbox = await startFakeMailbox();
  stack = await startSelfAddressedStack({ ...MANY_USERS_ENV, SMTP_URL: mailbox.url });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await mailbox?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterEach(() => page.close());

/** The recovery link in the `nth` mail to `email`. */
async function mailedLink(email: string, nth = 0): Promise<string> {
  const mail = await mailbox.waitForMail(email, { nth, containing: '/reset-password/' });
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\/[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no recovery link in: ${mail.text}`);
  return link;
}

describe('«Забыли пароль?»', () => {
  test('login → request by e-mail → the mailed link → a new password signs in and ends the older session', async () => {
    const user = await signUp(stack.url, { password: 'old-password' });
    await page.goto(`${stack.url}/login`);
    await page.getByRole('link', { name: 'Забыли пароль?' }).click();
    await page.waitForURL(`${stack.url}/forgot-password`);
    await page.getByRole('heading', { name: 'Восстановление пароля' }).waitFor();
    await page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await page.locator('.invalid-feedback', { hasText: 'Введите email' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await screenshot(page, 'password-forgot-1280');
    await page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await page.getByRole('status').filter({ hasText: 'мы отправили на него ссылку для смены пароля' }).waitFor();
    await screenshot(page, 'password-forgot-sent-1280');

    await page.goto(await mailedLink(user.email));
    await page.getByRole('heading', { name: 'Новый пароль' }).waitFor();
    await page.getByLabel('Новый пароль', { exact: true }).fill('new-password');
    await page.getByLabel('Подтвердите новый пароль').fill('other-password');
    await page.getByRole('button', { name: 'Сменить пароль' }).click();
    await page.locator('.invalid-feedback', { hasText: 'Пароли не совпадают' }).waitFor();
    await page.getByLabel('Подтвердите новый пароль').fill('new-password');
    await screenshot(page, 'password-reset-1280');
    await page.getByRole('button', { name: 'Сменить пароль' }).click();

    await page.waitForURL(`${stack.url}/dashboard`);
    await page.getByRole('main').getByText('Основная информация').waitFor();
    expect((await callApi(stack.url, 'GET', '/api/auth/profile', { token: user.token })).status).toBe(401);
    const login = await callApi(stack.url, 'POST', '/api/auth/login', {
      body: { email: user.email, password: 'new-password' },
    });
    expect(login.status).toBe(200);
  });

  test('a used link says so in Russian and offers a new one (390 px)', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const user = await signUp(stack.url, { password: 'old-password' });
    await callApi(stack.url, 'POST', '/api/auth/password-reset', { body: { email: user.email } });
    const link = await mailedLink(user.email);
    const used = await callApi(stack.url, 'POST', '/api/auth/password-reset/confirm', {
      body: { token: link.split('/').at(-1), newPassword: 'first-new' },
    });
    expect(used.status).toBe(200);

    await page.goto(link);
    await page.getByLabel('Новый пароль', { exact: true }).fill('second-new');
    await page.getByLabel('Подтвердите новый пароль').fill('second-new');
    await page.getByRole('button', { name: 'Сменить пароль' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Ссылка для смены пароля уже использована. Запросите новую ссылку' })
      .waitFor();
    await screenshot(page, 'password-reset-used-390');
    await page.getByRole('link', { name: 'Запросить новую ссылку' }).click();
    await page.waitForURL(`${stack.url}/forgot-password`);
    await screenshot(page, 'password-forgot-390');
  });
});
