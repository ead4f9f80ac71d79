import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { RENEWAL_CONSENT_VERSION, type CreatePaymentResponse, type UserSubscriptionsResponse } from '@gpt/contracts';
import { setWelcomeCredits, type TestStack } from '@gpt/deploy/testing';
import { sandboxDecisionCall } from '@gpt/kit/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { registeredPayer, storeSession } from '../support/payers';
import { startSelfAddressedStack } from '../support/site';
import { Tab } from '../support/tab';

let stack: TestStack;
let browser: Browser;
let page: Page;
const tab = new Tab(
  () => browser,
  () => stack.url,
);

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
  page = await tab.open();
});

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

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

    const listed = await api<UserSubscriptionsResponse>('GET', '/api/billing/subscriptions', { token: user.token });
    expect(listed.body.subscriptions).toMatchObject([{ status: 'canceled', card: '•••• 4444', next_charge_at: null }]);
  }, 90_000);
});

/** A user who bought Premium with «Продлевать автоматически» on the sandbox page. */
async function subscriber() {
  const user = await registeredPayer(stack);
  const created = await api<CreatePaymentResponse>('POST', '/api/billing/payments', {
    token: user.token,
    body: { tariff_id: 2, auto_renew: true, consent_version: RENEWAL_CONSENT_VERSION },
  });
  expect(created.status).toBe(201);
  const decision = sandboxDecisionCall(created.body.confirmation_url!, 'succeeded');
  expect((await api('POST', decision.path, { body: decision.body })).status).toBe(200);
  const listed = await api<UserSubscriptionsResponse>('GET', '/api/billing/subscriptions', { token: user.token });
  return { user, subscription: listed.body.subscriptions[0]! };
}

async function signInAsAdmin() {
  const res = await api<{ token: string; user: unknown }>('POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  await storeSession(page, stack.url, res.body);
}

describe('«Подписки» and the dashboard', () => {
  test('the admin sees each subscription, renews one now (charged once) and cancels it; the dashboard counts them', async () => {
    const { user, subscription } = await subscriber();
    await signInAsAdmin();
    await page.goto(`${stack.url}/admin/subscriptions`);
    const row = page.locator('table[aria-label="Подписки"] tbody tr').filter({ hasText: `ID ${user.id}` });
    await row.getByText('Продлевается').waitFor();
    await expect(row.textContent()).resolves.toMatch(/Premium.*350,00\s₽ в месяц.*Картой •••• 4444/s);
    await screenshot(page, 'admin-subscriptions-1280');

    await row.getByRole('button', { name: 'Продлить сейчас' }).click();
    const renew = page.getByRole('dialog', { name: 'Продлить сейчас' });
    await renew.getByLabel('Причина').fill('Просьба пользователя');
    await renew.getByRole('button', { name: 'Списать и продлить' }).click();
    await page.locator('.toast').filter({ hasText: 'Подписка продлена' }).waitFor();
    const after = await api<UserSubscriptionsResponse>('GET', '/api/billing/subscriptions', { token: user.token });
    expect(new Date(after.body.subscriptions[0]!.paid_until).getTime()).toBeGreaterThan(
      new Date(subscription.paid_until).getTime() + 27 * 86_400_000,
    );

    await row.getByRole('button', { name: 'Отменить' }).click();
    const cancel = page.getByRole('dialog', { name: 'Отменить автопродление' });
    await cancel.getByRole('button', { name: 'Отменить автопродление' }).click();
    await row.getByText('Автопродление отменено').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByText('Автопродление отменено').waitFor();
    await screenshot(page, 'admin-subscriptions-390');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${stack.url}/admin`);
    const card = page.getByRole('group', { name: 'Подписки' });
    await card.locator('[data-stat="subscriptionsCanceled"]').filter({ hasNotText: '—' }).waitFor();
    await expect(card.locator('[data-stat="subscriptionsCanceled"]').textContent()).resolves.not.toBe('0');
    await screenshot(page, 'admin-dashboard-subscriptions-1280');
  }, 90_000);

  test('another role gets 403 from the admin routes', async () => {
    const { user, subscription } = await subscriber();
    expect((await api('GET', '/api/admin/subscriptions', { token: user.token })).status).toBe(403);
    expect(
      (await api('POST', `/api/admin/subscriptions/${subscription.id}/renew`, { token: user.token, body: {} })).status,
    ).toBe(403);
  }, 60_000);
});
