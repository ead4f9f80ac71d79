import { beforeEach, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startTestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import { callApi } from '../support/api';
import { screenshot } from '../support/browser';
import { browserSuite, signInAsAdmin } from '../support/browser-suite';

let adminToken: string;
const site = browserSuite(() =>
  startTestStack({ ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1', RATE_LIMIT_LOGIN_POINTS: '1000' }),
);

beforeEach(async () => {
  adminToken = await signInAsAdmin(site);
});

const rows = () => site.page.locator('table[aria-label="Журнал действий"] tbody tr');

describe('/admin/audit', () => {
  test('the dashboard says the journal is whole; the journal lists a deposit with its reason, filters by action and shows before and after', async () => {
    const registered = await callApi<{ user: { id: number } }>(site.stack.url, 'POST', '/api/auth/register', {
      body: { email: `${uniqueName('audit')}@example.com`, password: 'password1' },
    });
    const userId = registered.body.user.id;
    const deposit = async () =>
      callApi(site.stack.url, 'PUT', `/api/admin/users/${userId}`, {
        token: adminToken,
        body: { depositAmount: 250, reason: 'Компенсация сбоя' },
        headers: { 'Idempotency-Key': randomUUID() },
      });
    // The user's balance may still be on its way to billing right after sign-up.
    for (let tries = 0; (await deposit()).status !== 200 && tries < 20; tries++) await site.page.waitForTimeout(250);

    await site.page.goto(`${site.stack.url}/admin`);
    await site.page.getByText(/Журнал действий цел: \d+ запис/).waitFor();
    await site.page.getByRole('link', { name: 'Открыть журнал' }).click();
    await site.page.waitForURL(/\/admin\/audit$/);
    const depositRow = rows().filter({ hasText: 'Пополнение баланса' }).filter({ hasText: 'Компенсация сбоя' });
    await depositRow.waitFor();
    await expect(depositRow.textContent()).resolves.toContain(site.stack.admin.email);
    await screenshot(site.page, 'admin-audit');

    await site.page.getByLabel('Действие').selectOption({ label: 'Вход администратора' });
    await site.page.waitForURL(/action=admin\.sign_in/);
    await depositRow.waitFor({ state: 'detached' });
    await expect(rows().first().textContent()).resolves.toContain('Вход администратора');
    await site.page.getByRole('button', { name: 'Сбросить' }).click();

    await depositRow.getByRole('button', { name: 'Просмотр' }).click();
    const dialog = site.page.getByRole('dialog', { name: 'Запись журнала' });
    await dialog.getByText('Компенсация сбоя').waitFor();
    await expect(dialog.textContent()).resolves.toMatch(/До.*"credits": 0.*После.*"credits": 250/s);
    await screenshot(site.page, 'admin-audit-entry');
  });
});
