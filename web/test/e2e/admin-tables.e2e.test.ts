import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SETTING_DESCRIPTIONS, SETTING_GROUPS } from '@gpt/contracts';
import { startTestStack, type TestStack } from '@gpt/deploy/testing';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import type { Browser } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { brokenModelNames, launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';
import { Tab } from '../support/tab';

/**
 * Every admin table shows its figures whole at 1 280 and 390 px (docs/product.md, Decisions): the actions
 * cell of a row never lies over another cell of it, no cell's text is cut, and the actions can be reached.
 */
let stack: TestStack;
let browser: Browser;
let session: { token: string; user: unknown };
const tab = new Tab(
  () => browser,
  () => stack.url,
);

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

beforeAll(async () => {
  stack = await startTestStack(MANY_USERS_ENV);
  browser = await launchChromium();
  session = (
    await api<{ token: string; user: unknown }>('POST', '/api/auth/login', {
      body: { email: stack.admin.email, password: stack.admin.password },
    })
  ).body;
  const token = session.token;

  // Rows with long figures in every table: a deposit of 1 250 ₽ (users, audit), a payment, bot messages,
  // a promo code and a support request.
  const user = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/register', {
    body: { email: `${uniqueName('tables')}@example.com`, password: 'password1' },
  });
  const deposit = () =>
    api('PUT', `/api/admin/users/${user.body.user.id}`, {
      token,
      body: { depositAmount: 1250, reason: 'Компенсация сбоя' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
  // The user's balance may still be on its way to billing right after sign-up.
  for (let tries = 0; (await deposit()).status !== 200 && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const tariffs = await api<{ tariffs: { id: number; name: string }[] }>('GET', '/api/tariffs');
  const premium = tariffs.body.tariffs.find((tariff) => tariff.name === 'Premium')!;
  expect(
    (await api('POST', '/api/billing/payments', { token: user.body.token, body: { tariff_id: premium.id } })).status,
  ).toBe(201);

  const telegramId = 6_000_000 + Math.floor(Math.random() * 1e6);
  const botKey = TEST_SECRETS.BOT_API_KEY;
  await api('POST', '/api/bot/users', { botKey, body: { telegram_id: telegramId, first_name: 'Анна' } });
  for (let tries = 0; tries < 40; tries++) {
    const res = await api('POST', '/api/bot/messages', {
      botKey,
      body: {
        telegram_id: telegramId,
        model: 'gpt-4o-mini',
        user_message: 'Как дела?',
        bot_response: 'Хорошо, спасибо!',
        status: 'success',
        input_tokens: 12_345,
        output_tokens: 6_789,
      },
    });
    if (res.status === 201) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  expect(
    (
      await api('POST', '/api/admin/promo-codes', {
        token,
        body: { code: `SPRING${Date.now() % 1e6}`, kind: 'credits', credits: 1_250_000, max_uses: 100_000 },
        headers: { 'Idempotency-Key': randomUUID() },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await api('POST', '/api/feedback', {
        body: { telegram: '@anna', subject: 'Не пришли кредиты', message: 'Оплатила, а кредитов нет.' },
      })
    ).status,
  ).toBe(201);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const TABLES = [
  ['/admin/users', 'Пользователи'],
  ['/admin/history', 'История сообщений'],
  ['/admin/payments', 'Платежи'],
  ['/admin/articles', 'Статьи'],
  ['/admin/promo-codes', 'Промокоды'],
  ['/admin/tariffs', 'Тарифы'],
  ['/admin/models', 'Модели'],
  ['/admin/modes', 'Режимы'],
  ['/admin/sysvals', 'Настройки'],
  ['/admin/support', 'Обращения'],
  ['/admin/audit', 'Журнал действий'],
] as const;

describe.each([1280, 390])('admin tables at %i px', (width) => {
  test.each(TABLES)(
    '%s: «%s» — no cell under the actions, no figure cut, the actions reachable (in view at 1280 px)',
    async (path, label) => {
      const page = await tab.open({ width, height: 900 });
      await storeSession(page, stack.url, session);
      await page.goto(`${stack.url}${path}`);
      const table = page.getByRole('table', { name: label });
      await table.locator('tbody tr .row-action').first().waitFor();
      await screenshot(page, `admin-tables-${path.split('/').pop()}-${width}`);

      const problems = await table.evaluate((element) => {
        const found: string[] = [];
        const heads = [...element.querySelectorAll('thead th')].map((th) => th.textContent?.trim() || 'иконка');
        const shown = (cell: Element) => getComputedStyle(cell).display !== 'none';
        for (const [rowIndex, row] of [...element.querySelectorAll('tbody tr')].entries()) {
          const cells = [...row.children].filter(shown);
          const actions = row.querySelector('td.data-table-actions');
          for (const [index, cell] of [...row.children].entries()) {
            if (!shown(cell)) continue;
            const name = `row ${rowIndex + 1}, «${heads[index]}»`;
            if (cell.scrollWidth > cell.clientWidth + 1) found.push(`${name}: text cut`);
            if (!actions || cell === actions) continue;
            const a = actions.getBoundingClientRect();
            const b = cell.getBoundingClientRect();
            const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            if (overlap > 0.5) found.push(`${name}: ${Math.round(overlap)} px under the actions`);
          }
          if (cells.length === 0) found.push(`row ${rowIndex + 1}: no cells`);
        }
        for (const [index, th] of [...element.querySelectorAll('thead th')].entries()) {
          if (shown(th) && th.scrollWidth > th.clientWidth + 1) found.push(`header «${heads[index]}»: text cut`);
        }
        return found;
      });
      expect(problems).toEqual([]);
      if (width === 1280) {
        // Beside the sidebar every table fits: nothing to scroll to, the actions in view.
        const overflow = await table.evaluate((element) => element.scrollWidth - element.parentElement!.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }

      // The first row's first action can be scrolled to and clicked on, uncovered.
      const action = table.locator('tbody tr:has(.row-action)').first().locator('.row-action').first();
      await action.scrollIntoViewIfNeeded();
      const reachable = await action.evaluate((button) => {
        const box = button.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return box.left >= 0 && box.right <= window.innerWidth && (hit === button || button.contains(hit));
      });
      expect(reachable).toBe(true);
    },
    60_000,
  );
});

describe.each([1280, 390])('/admin/sysvals at %i px', (width) => {
  test('every setting is on the one page under its section’s heading, with what it does in Russian; a search finds any; model names unbroken', async () => {
    const page = await tab.open({ width, height: 900 });
    await storeSession(page, stack.url, session);
    await page.goto(`${stack.url}/admin/sysvals`);
    const table = page.getByRole('table', { name: 'Настройки' });
    const rows = table.locator('tbody tr');
    await rows.first().waitFor();
    await table.locator('.row-action').first().waitFor();
    // Nothing to page through: every setting is here.
    await expect(page.getByText(/Страница \d+ из/).count()).resolves.toBe(0);
    const shown = () =>
      rows.evaluateAll((trs) => {
        let section = '';
        const found: { section: string; key: string; text: string }[] = [];
        for (const tr of trs) {
          const heading = tr.querySelector('th[scope="rowgroup"]');
          if (heading) section = heading.textContent!.trim();
          else
            found.push({
              section,
              key: tr.querySelector('code')!.textContent!.trim(),
              text: tr.querySelector('code + div')!.textContent!.trim(),
            });
        }
        return found;
      });
    const expected = Object.entries(SETTING_DESCRIPTIONS)
      .map(([key, { group, text }]) => ({ section: group, key, text }))
      .sort(
        (a, b) => SETTING_GROUPS.indexOf(a.section) - SETTING_GROUPS.indexOf(b.section) || (a.key < b.key ? -1 : 1),
      );
    await expect(shown()).resolves.toEqual(expected);
    for (const { text } of expected) expect(text).toMatch(/^[А-ЯЁ].*\.$/);
    await expect(table.locator('th[scope="rowgroup"]').allTextContents()).resolves.toEqual(
      SETTING_GROUPS.filter((group) => expected.some((setting) => setting.section === group)),
    );
    await expect(brokenModelNames(page, 'table')).resolves.toEqual([]);
    await screenshot(page, `admin-sysvals-described-${width}`);

    // The search reads the description, whatever the case and «ё»: «звезд» finds the star rate under its heading.
    const search = page.getByLabel('Найти настройку');
    await search.fill('ЗВЕЗД');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Настройки"] tbody tr').length === 2);
    await expect(shown()).resolves.toEqual(expected.filter((setting) => setting.key === 'star_rate_rub'));
    await screenshot(page, `admin-sysvals-search-${width}`);
    // And the key, word by word.
    await search.fill('welcome daily');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Настройки"] tbody tr').length === 3);
    await expect(shown().then((found) => found.map((setting) => setting.key))).resolves.toEqual([
      'welcome_daily_limit',
      'welcome_per_address_daily',
    ]);
    await search.fill('нет такой настройки');
    await table.getByText('Ничего не найдено. Измените запрос.').waitFor();
    expect(page.url()).toContain('q=');
  });
});

describe.each([1280, 390])('the history dialog at %i px', (width) => {
  test('shows a message at the list’s end with «Следующее» and «Предыдущее» off, and no request answers 404', async () => {
    const page = await tab.open({ width, height: 900 });
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await storeSession(page, stack.url, session);
    await page.goto(`${stack.url}/admin/history`);
    const rows = page.getByRole('table', { name: 'История сообщений' }).locator('tbody tr');
    // The oldest message: nothing below it; the newest: nothing above it.
    for (const row of [rows.last(), rows.first()]) {
      await row.getByRole('button', { name: 'Просмотр' }).click();
      const dialog = page.getByRole('dialog', { name: 'Сообщение' });
      await dialog.getByText('Сообщение пользователя').waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `admin-history-dialog-end-${width}`);
      const buttons = [
        dialog.getByRole('button', { name: '← Предыдущее' }),
        dialog.getByRole('button', { name: 'Следующее →' }),
      ];
      const enabled = await Promise.all(buttons.map((button) => button.isEnabled()));
      expect(enabled.filter(Boolean).length).toBeLessThanOrEqual(1);
      await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    expect(notFound).toEqual([]);
  });
});
