import { afterAll, describe, expect, test } from '@jest/globals';
import { signUp } from '@gpt/deploy/testing';
import { type FakeMailbox, startFakeMailbox } from '@gpt/kit/testing';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { screenshot } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { startSelfAddressedStack } from '../support/site';

/** Password recovery as a visitor meets it: the login page, the mail on a real SMTP server, the link. */
let mailbox: FakeMailbox;
const site = browserSuite(async () => {
  mailbox = await startFakeMailbox();
  return startSelfAddressedStack({ ...MANY_USERS_ENV, SMTP_URL: mailbox.url });
});
afterAll(() => mailbox?.close());

/** The recovery link in the `nth` mail to `email`. */
async function mailedLink(email: string, nth = 0): Promise<string> {
  const mail = await mailbox.waitForMail(email, { nth, containing: '/reset-password/' });
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\/[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no recovery link in: ${mail.text}`);
  return link;
}

describe('«Забыли пароль?»', () => {
  test('login → request by e-mail → the mailed link → a new password signs in and ends the older session', async () => {
    const user = await signUp(site.stack.url, { password: 'old-password' });
    await site.page.goto(`${site.stack.url}/login`);
    await site.page.getByRole('link', { name: 'Забыли пароль?' }).click();
    await site.page.waitForURL(`${site.stack.url}/forgot-password`);
    await site.page.getByRole('heading', { name: 'Восстановление пароля' }).waitFor();
    await site.page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await site.page.locator('.invalid-feedback', { hasText: 'Введите email' }).waitFor();
    await site.page.getByLabel('Email').fill(user.email);
    await screenshot(site.page, 'password-forgot-1280');
    await site.page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await site.page.getByRole('status').filter({ hasText: 'мы отправили на него ссылку для смены пароля' }).waitFor();
    await screenshot(site.page, 'password-forgot-sent-1280');

    await site.page.goto(await mailedLink(user.email));
    await site.page.getByRole('heading', { name: 'Новый пароль' }).waitFor();
    await site.page.getByLabel('Новый пароль', { exact: true }).fill('new-password');
    await site.page.getByLabel('Подтвердите новый пароль').fill('other-password');
    await site.page.getByRole('button', { name: 'Сменить пароль' }).click();
    await site.page.locator('.invalid-feedback', { hasText: 'Пароли не совпадают' }).waitFor();
    await site.page.getByLabel('Подтвердите новый пароль').fill('new-password');
    await screenshot(site.page, 'password-reset-1280');
    await site.page.getByRole('button', { name: 'Сменить пароль' }).click();

    await site.page.waitForURL(`${site.stack.url}/dashboard`);
    await site.page.getByRole('main').getByText('Основная информация').waitFor();
    expect((await callApi(site.stack.url, 'GET', '/api/auth/profile', { token: user.token })).status).toBe(401);
    const login = await callApi(site.stack.url, 'POST', '/api/auth/login', {
      body: { email: user.email, password: 'new-password' },
    });
    expect(login.status).toBe(200);
  });

  test('a used link says so in Russian and offers a new one (390 px)', async () => {
    await site.page.setViewportSize({ width: 390, height: 844 });
    const user = await signUp(site.stack.url, { password: 'old-password' });
    await callApi(site.stack.url, 'POST', '/api/auth/password-reset', { body: { email: user.email } });
    const link = await mailedLink(user.email);
    const used = await callApi(site.stack.url, 'POST', '/api/auth/password-reset/confirm', {
      body: { token: link.split('/').at(-1), newPassword: 'first-new' },
    });
    expect(used.status).toBe(200);

    await site.page.goto(link);
    await site.page.getByLabel('Новый пароль', { exact: true }).fill('second-new');
    await site.page.getByLabel('Подтвердите новый пароль').fill('second-new');
    await site.page.getByRole('button', { name: 'Сменить пароль' }).click();
    await site.page
      .getByRole('alert')
      .filter({ hasText: 'Ссылка для смены пароля уже использована. Запросите новую ссылку' })
      .waitFor();
    await screenshot(site.page, 'password-reset-used-390');
    await site.page.getByRole('link', { name: 'Запросить новую ссылку' }).click();
    await site.page.waitForURL(`${site.stack.url}/forgot-password`);
    await screenshot(site.page, 'password-forgot-390');
  });
});
