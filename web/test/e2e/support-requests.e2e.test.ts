import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { type FakeMailbox, startFakeMailbox, uniqueName } from '@gpt/kit/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';

let stack: TestStack;
let browser: Browser;
let mailbox: FakeMailbox;

beforeAll(async () => {
  mailbox = await startFakeMailbox();
  stack = await startTestStack({ ...MANY_USERS_ENV, SMTP_URL: mailbox.url });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await mailbox?.close();
});

async function signedIn(session: { token: string; user: unknown }, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await storeSession(page, stack.url, session);
  return page;
}

const adminSession = async () =>
  (
    await callApi<{ token: string; user: unknown }>(stack.url, 'POST', '/api/auth/login', {
      body: { email: stack.admin.email, password: stack.admin.password },
    })
  ).body;

describe('support requests: the contact form reaches an admin, and the answer reaches the person', () => {
  test.each([1280, 390])(
    'at %i px: a signed-in user writes, the admin sees the count, answers by e-mail, the user reads it in the account',
    async (width) => {
      const person = await signUp(stack.url);
      const subject = uniqueName('Не пришли кредиты');

      const user = await signedIn(person, width);
      await user.goto(`${stack.url}/contact`);
      await expect(user.getByLabel('E-mail для ответа').inputValue()).resolves.toBe(person.email);
      await user.getByLabel('Telegram').fill('@maria');
      await user.getByLabel('Тема').fill(subject);
      await user.getByLabel('Сообщение').fill('Оплатил 300 ₽, а баланс не изменился.');
      await user.getByRole('button', { name: 'Отправить' }).click();
      await user.getByText('Спасибо! Ваше сообщение отправлено.').waitFor();
      await screenshot(user, `contact-signed-in-${width}`);

      const admin = await signedIn(await adminSession(), width);
      await admin.goto(`${stack.url}/admin/support`);
      const row = admin.locator('table[aria-label="Обращения"] tbody tr').filter({ hasText: subject });
      await row.waitFor();
      await expect(row.getByText('Новое').isVisible()).resolves.toBe(true);
      if (width > 900) {
        const badge = admin.getByRole('link', { name: /Обращения/ }).locator('.badge');
        await expect(badge.textContent().then(Number)).resolves.toBeGreaterThanOrEqual(1);
      }
      await screenshot(admin, `admin-support-${width}`);

      await row.getByRole('button', { name: 'Ответить' }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByText(`на e-mail ${person.email}`).waitFor();
      await dialog.getByLabel('Ответ').fill('Кредиты начислены, проверьте баланс.');
      await screenshot(admin, `admin-support-answer-${width}`);
      await dialog.getByRole('button', { name: 'Ответить' }).click();
      await admin.locator('.toast').filter({ hasText: 'Ответ отправлен' }).waitFor();
      await row.getByText('Решено').waitFor();

      const mail = await mailbox.waitForMail(person.email, { containing: 'Кредиты начислены' });
      expect(mail.text).toContain('Кредиты начислены, проверьте баланс.');

      await user.goto(`${stack.url}/dashboard`);
      await user.getByText('Кредиты начислены, проверьте баланс.').waitFor();
      // «Мои обращения» is a section of its own, not inside another block's button.
      await user.getByRole('heading', { name: 'Мои обращения' }).waitFor();
      await expect(user.getByRole('link', { name: /Мои обращения/ }).count()).resolves.toBe(0);
      await screenshot(user, `account-support-answer-${width}`);
      await Promise.all([user.close(), admin.close()]);
    },
    90_000,
  );
});
