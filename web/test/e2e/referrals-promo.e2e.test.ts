import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import type { PromoCode, ReferralSummary } from '@gpt/contracts';
import { busOf, setWelcomeCredits, type TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { registeredPayer, storeSession } from '../support/payers';
import { startSelfAddressedStack } from '../support/site';

/** The personal account's «Пригласить друга» and «Промокод», and the admin's «Промокоды» screen. */
const BOT_NAME = 'gpt_referrals_test_bot';

let stack: TestStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminSession: { token: string; user: unknown };

beforeAll(async () => {
  stack = await startSelfAddressedStack({ ...MANY_USERS_ENV, TELEGRAM_BOT_USERNAME: BOT_NAME });
  await setWelcomeCredits(stack, 0);
  const login = await callApi<{ token: string; user: unknown }>(stack.url, 'POST', '/api/auth/login', {
    body: stack.admin,
  });
  adminSession = login.body;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});
afterEach(() => context?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

async function open(width = 1280, session?: { token: string; user: unknown }) {
  context = await browser.newContext({
    viewport: { width, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  if (session) await storeSession(page, stack.url, session);
  return page;
}

const summaryOf = (token: string) =>
  api<ReferralSummary>('GET', '/api/billing/referrals', { token }).then((res) => res.body);

async function createCode(body: Record<string, unknown>): Promise<PromoCode> {
  const res = await api<{ promo_code: PromoCode }>('POST', '/api/admin/promo-codes', {
    token: adminSession.token,
    body: { kind: 'credits', credits: 500, max_uses: 5, ...body },
  });
  expect(res.status).toBe(201);
  return res.body.promo_code;
}

describe('«Пригласить друга» in the personal account', () => {
  test('shows both links with copy buttons; a friend who opens the site link and registers is counted', async () => {
    const inviter = await registeredPayer(stack);
    const { referral_code: code } = await summaryOf(inviter.token);

    await open(1280, inviter);
    await page.goto(`${stack.url}/dashboard`);
    const block = page.getByTestId('invite-friends');
    await block.waitFor();
    await expect(page.getByRole('textbox', { name: 'Ссылка на сайт' }).inputValue()).resolves.toBe(
      `${stack.url}/?ref=${code}`,
    );
    await expect(page.getByRole('textbox', { name: 'Ссылка на бота' }).inputValue()).resolves.toBe(
      `https://t.me/${BOT_NAME}?start=ref_${code}`,
    );
    await expect(page.getByTestId('referral-invited').textContent()).resolves.toBe('0');
    await page.getByRole('button', { name: 'Копировать: Ссылка на сайт' }).click();
    await page.getByText('Ссылка скопирована').waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`${stack.url}/?ref=${code}`);
    await block.scrollIntoViewIfNeeded();
    await screenshot(page, 'referrals-account-block');
    await context.close();

    // The friend lands on the home page through the link, looks around, then registers.
    const friendKnown = busOf(stack, 'billing').waitFor(
      'acked',
      (e) => e.type === 'user.registered' && (e.data as { referred_by: number | null }).referred_by === inviter.id,
      20_000,
    );
    await open(390);
    await page.goto(`${stack.url}/?ref=${code}`);
    await page.goto(`${stack.url}/pricing`);
    await page.goto(`${stack.url}/register`);
    await page.getByLabel('Email').fill(`${uniqueName('friend')}@example.com`);
    await page.getByLabel('Пароль', { exact: true }).fill('password1');
    await page.getByLabel('Подтверждение пароля').fill('password1');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    await page.getByTestId('invite-friends').waitFor();
    await screenshot(page, 'referrals-friend-account-390');
    await context.close();

    await friendKnown;
    await open(1280, inviter);
    await page.goto(`${stack.url}/dashboard`);
    await page.getByTestId('invite-friends').waitFor();
    await expect(page.getByTestId('referral-invited').textContent()).resolves.toBe('1');
    await context.close();

    // The admin's dashboard counts the month's invited people.
    await open(1280, adminSession);
    await page.goto(`${stack.url}/admin`);
    await page.locator('[data-stat="referralInvited"]', { hasText: '1' }).waitFor();
    await expect(page.locator('[data-stat="referralCredits"]').textContent()).resolves.toBe('0');
    await page.locator('[data-stat="referralInvited"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-dashboard-referrals');
  });
});

describe('«Промокод» in the personal account', () => {
  test('a code typed in lower case gives its credits; the second try is refused in Russian', async () => {
    const code = await createCode({
      code: uniqueName('WELCOME')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(-20),
    });
    const user = await registeredPayer(stack);

    await open(390, user);
    await page.goto(`${stack.url}/dashboard`);
    const field = page.getByLabel('Промокод');
    await field.fill(code.code.toLowerCase());
    await page.getByRole('button', { name: 'Активировать' }).click();
    const result = page.getByTestId('promo-result');
    await result.getByText(`Промокод ${code.code} активирован: +500 кредитов`).waitFor();
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'promo-redeemed-390');

    await field.fill(code.code);
    await page.getByRole('button', { name: 'Активировать' }).click();
    await result.getByText('Вы уже активировали этот промокод').waitFor();
    await screenshot(page, 'promo-refused-390');
    await expect(api('GET', '/api/billing/balance', { token: user.token })).resolves.toMatchObject({
      body: expect.objectContaining({ credits: 500 }),
    });
  });
});

describe('/admin/promo-codes', () => {
  test('the admin creates a code in the dialog, finds it, and sees who used it', async () => {
    const text = uniqueName('SPRING')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-16)
      .toUpperCase();
    await open(1280, adminSession);
    await page.goto(`${stack.url}/admin/promo-codes`);
    await page.getByRole('link', { name: 'Промокоды' }).waitFor();
    await page.getByRole('button', { name: 'Добавить промокод' }).click();
    const dialog = page.getByRole('dialog');
    const save = dialog.getByRole('button', { name: 'Сохранить' });
    // The contract's rules show under the fields they break, and saving waits until none does.
    await dialog.getByLabel('Код').fill('ab');
    await dialog.getByLabel('Кредитов').fill('0');
    await expect(dialog.locator('#promo-code ~ .invalid-feedback').textContent()).resolves.toBe(
      'Код: от 3 до 32 латинских букв и цифр',
    );
    await expect(dialog.locator('#promo-credits ~ .invalid-feedback').textContent()).resolves.toBe(
      'Кредиты: целое число от 1 до 10 000 000',
    );
    await expect(save.isDisabled()).resolves.toBe(true);
    await screenshot(page, 'admin-promo-codes-invalid');
    await dialog.getByLabel('Код').fill(text.toLowerCase());
    await dialog.getByLabel('Кредитов').fill('1500');
    await dialog.getByLabel('Всего использований').fill('3');
    await dialog.getByLabel('Действует до').fill('2030-01-01T10:00');
    await dialog.getByLabel('Действует с').fill('2030-01-02T10:00');
    await expect(dialog.locator('#promo-valid-until ~ .invalid-feedback').textContent()).resolves.toBe(
      'Конец действия должен быть позже начала',
    );
    await expect(dialog.locator('.invalid-feedback').count()).resolves.toBe(1);
    await expect(save.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Действует с').fill('');
    await dialog.getByLabel('Действует до').fill('');
    await dialog.locator('.invalid-feedback').first().waitFor({ state: 'detached' });
    await screenshot(page, 'admin-promo-codes-add');
    await save.click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByLabel('Поиск по коду').fill(text.slice(0, 12).toLowerCase());
    const row = page.getByRole('row').filter({ hasText: text });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('0 / 3');

    const user = await registeredPayer(stack);
    const redeemed = await api('POST', '/api/billing/promo-codes/redeem', { token: user.token, body: { code: text } });
    expect(redeemed.status).toBe(200);
    await page.reload();
    await row.getByText('1 / 3').waitFor();
    await screenshot(page, 'admin-promo-codes-list');
    await row.getByRole('button', { name: 'Просмотр' }).click();
    await page.getByTestId('promo-redemptions').getByText(user.email).waitFor();
    await screenshot(page, 'admin-promo-codes-view');
  });
});
