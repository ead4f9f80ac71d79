import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { busOf, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot, seriousAxeViolations } from '../support/browser';
import { storeSession } from '../support/payers';
import { latinOnlyWords, type Role, screensOf } from '../support/screens';

/**
 * Every screen as the three roles meet it, wide and narrow: the interface speaks
 * Russian — no Latin-only word outside the allow-list, in the text or in what a screen reader says.
 */
let stack: TestStack;
let browser: Browser;
let article: { slug: string; title: string };
const sessions: Partial<Record<Role, { token: string; user: unknown }>> = {};

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(stack.url, method, path, options);

beforeAll(async () => {
  stack = await startTestStack(MANY_USERS_ENV);
  browser = await launchChromium();

  const admin = await api<{ token: string; user: unknown }>('POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  sessions.admin = admin.body;
  const user = await api<{ token: string; user: unknown }>('POST', '/api/auth/register', {
    body: { email: `${uniqueName('screens')}@example.com`, password: 'password1' },
  });
  sessions.user = user.body;

  // What the admin tables show: a message of each status and a pending payment.
  const telegramId = 5_000_000 + Math.floor(Math.random() * 1e6);
  const botKey = TEST_SECRETS.BOT_API_KEY;
  await api('POST', '/api/bot/users', { botKey, body: { telegram_id: telegramId, first_name: 'Анна' } });
  await busOf(stack, 'chat-history').waitFor(
    'acked',
    (event) => event.type === 'user.registered' && (event.data as { telegram_id: number }).telegram_id === telegramId,
    20_000,
  );
  for (const status of ['success', 'error'] as const) {
    const res = await api('POST', '/api/bot/messages', {
      botKey,
      body: {
        telegram_id: telegramId,
        model: 'gpt-4o-mini',
        user_message: 'Как дела?',
        bot_response: status === 'success' ? 'Хорошо, спасибо!' : null,
        error_message: status === 'error' ? 'Модель не ответила' : undefined,
        status,
        input_tokens: 100,
        output_tokens: status === 'success' ? 50 : 0,
      },
    });
    expect(res.status).toBe(201);
  }
  const tariffs = await api<{ tariffs: { id: number; name: string }[] }>('GET', '/api/tariffs');
  const premium = tariffs.body.tariffs.find((tariff) => tariff.name === 'Premium')!;
  expect(
    (await api('POST', '/api/billing/payments', { token: user.body.token, body: { tariff_id: premium.id } })).status,
  ).toBe(201);

  const articles = await api<{ articles: { slug: string; title: string }[] }>('GET', '/api/articles?limit=1');
  article = articles.body.articles[0]!;
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A page in a context of its own (axe-core needs one to check frames); close its context when done. */
async function openAs(role: Role, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const session = sessions[role];
  if (session) await storeSession(page, stack.url, session);
  return page;
}

const WIDTHS: Record<Role, number[]> = { visitor: [1280, 390], user: [1280, 390], admin: [1280, 800, 390] };

describe.each(['visitor', 'user', 'admin'] as const)('as %s', (role) => {
  test.each(WIDTHS[role])(
    'at %i px every screen speaks Russian and has no serious or critical axe violation',
    async (width) => {
      const page = await openAs(role, width);
      const found: Record<string, string[]> = {};
      const violations: Record<string, string[]> = {};
      try {
        for (const screen of screensOf(role, article)) {
          await page.goto(`${stack.url}${screen.path}`);
          await page.getByText(screen.ready).filter({ visible: true }).first().waitFor();
          const toggle = page.locator('button.navbar-toggler:visible');
          if ((await toggle.count()) > 0) await toggle.click();
          if (!screen.path.startsWith('/admin')) {
            // The public header is a banner landmark around the site's navigation.
            await page.getByRole('banner').getByRole('navigation').waitFor({ state: 'attached' });
          }
          const words = await latinOnlyWords(page);
          if (words.length > 0) found[screen.name] = words;
          const serious = await seriousAxeViolations(page);
          if (serious.length > 0) violations[screen.name] = serious;
          await screenshot(page, `screens-${role}-${screen.name}-${width}`);
        }
      } finally {
        await page.context().close();
      }
      expect(found).toEqual({});
      expect(violations).toEqual({});
    },
    180_000,
  );
});

test('the accessibility check finds an image without alt text, an unnamed button and unreadable text', async () => {
  const page = await browser.newPage();
  try {
    await page.setContent(
      '<html lang="ru"><head><title>Проверка</title></head><body><main>' +
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button>' +
        '<p style="color:#eee;background:#fff">Бледный текст</p></main></body></html>',
    );
    const rules = (await seriousAxeViolations(page)).map((violation) => violation.split(':')[0]);
    expect(rules.sort()).toEqual(['button-name', 'color-contrast', 'image-alt']);
  } finally {
    await page.context().close();
  }
});

describe('«Выйти»', () => {
  test.each([
    ['user', '/dashboard', 'Основная информация'],
    ['admin', '/admin', 'Последнее сообщение'],
  ] as const)(
    'as %s from %s lands on the home page, signed out (docs/product.md, Screens)',
    async (role, path, ready) => {
      const page = await openAs(role, 1280);
      try {
        await page.goto(`${stack.url}${path}`);
        await page.getByText(ready).filter({ visible: true }).first().waitFor();
        await page.getByRole('button', { name: 'Выйти' }).click();
        await page.waitForURL(`${stack.url}/`);
        await page.getByRole('link', { name: 'Войти' }).waitFor();
        // Nothing navigates on afterwards (a guard of the page just left would go to /login).
        await page.waitForLoadState('networkidle');
        expect(new URL(page.url()).pathname).toBe('/');
        expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      } finally {
        await page.context().close();
      }
    },
  );
});

/**
 * Whether the text of each element stays inside it and its lines break only at an e-mail's
 * separators (before «@» or «.»), never inside a word.
 */
function breaksOnlyAtSeparators(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((elements) =>
    elements.every((element) => {
      const right = element.getBoundingClientRect().right;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const chars: { char: string; top: number; right: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const box = range.getBoundingClientRect();
          chars.push({ char: text[i]!, top: Math.round(box.top), right: box.right });
        }
      }
      return chars.every(
        (c, i) =>
          c.right <= right + 0.5 && (i === 0 || c.top === chars[i - 1]!.top || c.char === '@' || c.char === '.'),
      );
    }),
  );
}

describe('admin tables at 800 px', () => {
  test.each([
    ['/admin/users', 'Пользователи'],
    ['/admin/history', 'История сообщений'],
    ['/admin/payments', 'Платежи'],
  ])(
    '%s: the actions and the «Действия» header can be scrolled to, uncovered; e-mails break at «@» or «.»',
    async (path, label) => {
      const page = await openAs('admin', 800);
      try {
        await page.goto(`${stack.url}${path}`);
        const table = page.getByRole('table', { name: label });
        const firstAction = table.locator('tbody tr').first().locator('.row-action').first();
        await firstAction.waitFor();
        // A table wider than the screen scrolls sideways inside its frame, the actions at the end.
        await table.locator('th.data-table-actions').scrollIntoViewIfNeeded();
        const inView = await firstAction.evaluate((button) => {
          const box = button.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return box.right <= window.innerWidth && (hit === button || button.contains(hit));
        });
        expect(inView).toBe(true);
        const header = table.locator('th.data-table-actions');
        const headerShown = await header.evaluate((th) => {
          const box = th.getBoundingClientRect();
          return th.scrollWidth <= th.clientWidth && box.right <= window.innerWidth;
        });
        expect(headerShown).toBe(true);
        if (path === '/admin/users') {
          await expect(breaksOnlyAtSeparators(page, 'td.admin-users-person > div:first-child')).resolves.toBe(true);
        }
        await screenshot(page, `admin-table-${path.split('/').pop()}-800`);
      } finally {
        await page.context().close();
      }
    },
  );

  test.each([
    ['/admin/history', 'История сообщений', ['Стоимость', 'Дата'], 1280],
    ['/admin/history', 'История сообщений', ['Стоимость', 'Дата'], 800],
    ['/admin/payments', 'Платежи', ['Сумма', 'Создан'], 1280],
    ['/admin/payments', 'Платежи', ['Сумма', 'Создан'], 800],
    ['/admin/articles', 'Статьи', ['Заголовок', 'Опубликована'], 800],
  ] as const)('%s: %s keeps %j and «Действия» in view, uncovered, at %i px', async (path, label, headers, width) => {
    const page = await openAs('admin', width);
    try {
      await page.goto(`${stack.url}${path}`);
      const table = page.getByRole('table', { name: label });
      await table.locator('tbody tr .row-action').first().waitFor();
      await screenshot(page, `admin-table-${path.split('/').pop()}-columns-${width}`);
      for (const header of [...headers, 'Действия']) {
        const shown = await table.evaluate((element, text) => {
          const heads = [...element.querySelectorAll('thead th')];
          const index = heads.findIndex((th) => th.textContent?.trim().startsWith(text));
          const th = heads[index];
          const td = element.querySelectorAll('tbody tr')[0]?.children[index];
          if (!th || !td) return `no column ${text}`;
          // Whole, left of the actions (or, for them, inside the window), and not covered.
          const actions = element.querySelector('thead th.data-table-actions')!;
          const edge = th === actions ? window.innerWidth : actions.getBoundingClientRect().left;
          const inView = (cell: Element) => {
            const box = cell.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return box.left >= 0 && box.right <= edge + 0.5 && (hit === cell || cell.contains(hit));
          };
          // The header's text is whole (not «ДЕЙСТВИ»), and the first row's cell is on screen.
          if (th.scrollWidth > th.clientWidth) return `${text}: header clipped`;
          return inView(th) && inView(td) ? 'in view' : `${text}: out of view`;
        }, header);
        expect(shown).toBe('in view');
      }
    } finally {
      await page.context().close();
    }
  });

  test('the personal account at 390 px: a long e-mail in «Основная информация» stays inside, broken at «@» or «.»', async () => {
    const email = `${uniqueName('a-rather-long-mailbox-name')}@mail.subdomain.example-company.com`;
    const res = await api<{ token: string; user: unknown }>('POST', '/api/auth/register', {
      body: { email, password: 'password1' },
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await storeSession(page, stack.url, res.body);
      await page.goto(`${stack.url}/dashboard`);
      await page.getByText('Основная информация').waitFor();
      await expect(breaksOnlyAtSeparators(page, '.info-list dd >> nth=0')).resolves.toBe(true);
      await screenshot(page, 'dashboard-long-email-390');
    } finally {
      await page.context().close();
    }
  });
});

describe('linking flows', () => {
  const linkError = '/link-error?code=link_token_used';

  test('the link error page offers a signed-in user the personal account, and its message ends with a full stop', async () => {
    const page = await openAs('user', 1280);
    try {
      await page.goto(`${stack.url}${linkError}`);
      const main = page.getByRole('main');
      await main.getByText('Ссылка уже использована. Получите новую ссылку в боте.', { exact: true }).waitFor();
      await expect(main.getByRole('link', { name: 'Личный кабинет' }).isVisible()).resolves.toBe(true);
      await expect(main.getByRole('link', { name: 'Войти' }).count()).resolves.toBe(0);
      await expect(main.getByRole('link', { name: 'Регистрация' }).count()).resolves.toBe(0);
      await screenshot(page, 'link-error-signed-in');
    } finally {
      await page.context().close();
    }
  });

  test('a visitor on the link error page is offered «Войти» and «Регистрация» (docs/product.md, Screens)', async () => {
    const page = await openAs('visitor', 1280);
    try {
      await page.goto(`${stack.url}${linkError}`);
      const main = page.getByRole('main');
      await main.getByRole('link', { name: 'Войти' }).waitFor();
      await expect(main.getByRole('link', { name: 'Регистрация' }).isVisible()).resolves.toBe(true);
    } finally {
      await page.context().close();
    }
  });

  test('the personal account has one way into the Telegram dialog: «Связать»', async () => {
    const page = await openAs('user', 1280);
    try {
      await page.goto(`${stack.url}/dashboard`);
      const main = page.getByRole('main');
      await main.getByRole('button', { name: 'Связать', exact: true }).waitFor();
      await expect(main.getByRole('button', { name: /связать/i }).count()).resolves.toBe(1);
      await main.getByRole('button', { name: 'Связать', exact: true }).click();
      await page.getByRole('dialog').filter({ hasText: 'Связь с Telegram' }).waitFor();
    } finally {
      await page.context().close();
    }
  });
});
