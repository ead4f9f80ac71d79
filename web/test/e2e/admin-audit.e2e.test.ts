import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';

let stack: TestStack;
let browser: Browser;
let page: Page;
let adminToken: string;

beforeAll(async () => {
  stack = await startTestStack({ ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1', RATE_LIMIT_LOGIN_POINTS: '1000' });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const login = await callApi<{ token: string; user: unknown }>(stack.url, 'POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  adminToken = login.body.token;
  await storeSession(page, stack.url, login.body);
});
afterEach(() => page.close());

const rows = () => page.locator('table[aria-label="Журнал действий"] tbody tr');

describe('/admin/audit', () => {
  test('the dashboard says the journal is whole; the journal lists a deposit with its reason, filters by action and shows before and after', async () => {
    const registered = await callApi<{ user: { id: number } }>(stack.url, 'POST', '/api/auth/register', {
      body: { email: `${uniqueName('audit')}@example.com`, password: 'password1' },
    });
    const userId = registered.body.user.id;
    const deposit = async () =>
      callApi(stack.url, 'PUT', `/api/admin/users/${userId}`, {
        token: adminToken,
        body: { depositAmount: 250, reason: 'Компенсация сбоя' },
        headers: { 'Idempotency-Key': randomUUID() },
      });
    // The user's balance may still be on its way to billing right after sign-up.
    for (let tries = 0; (await deposit()).status !== 200 && tries < 20; tries++) await page.waitForTimeout(250);

    await page.goto(`${stack.url}/admin`);
    await page.getByText(/Журнал действий цел: \d+ запис/).waitFor();
    await page.getByRole('link', { name: 'Открыть журнал' }).click();
    await page.waitForURL(/\/admin\/audit$/);
    const depositRow = rows().filter({ hasText: 'Пополнение баланса' }).filter({ hasText: 'Компенсация сбоя' });
    await depositRow.waitFor();
    await expect(depositRow.textContent()).resolves.toContain(stack.admin.email);
    await screenshot(page, 'admin-audit');

    await page.getByLabel('Действие').selectOption({ label: 'Вход администратора' });
    await page.waitForURL(/action=admin\.sign_in/);
    await depositRow.waitFor({ state: 'detached' });
    await expect(rows().first().textContent()).resolves.toContain('Вход администратора');
    await page.getByRole('button', { name: 'Сбросить' }).click();

    await depositRow.getByRole('button', { name: 'Просмотр' }).click();
    const dialog = page.getByRole('dialog', { name: 'Запись журнала' });
    await dialog.getByText('Компенсация сбоя').waitFor();
    await expect(dialog.textContent()).resolves.toMatch(/До.*"credits": 0.*После.*"credits": 250/s);
    await screenshot(page, 'admin-audit-entry');
  });
});
