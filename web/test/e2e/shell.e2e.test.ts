import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { RunningGateway } from '@gpt/gateway';
import { signAccessToken } from '@gpt/kit';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';
import { startSite } from '../support/site';
import { Tab } from '../support/tab';

const JWT_SECRET = 'shell-e2e-jwt-secret-0123456789abcdef';

let site: RunningGateway;
let browser: Browser;
let page: Page;
const tab = new Tab(
  () => browser,
  () => site.url,
);

beforeAll(async () => {
  site = await startSite({ JWT_SECRET });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

beforeEach(async () => {
  page = await tab.open();
});

describe('web shell in Chromium through the gateway', () => {
  test('the home page shows the hero, the tariffs and the footer', async () => {
    await page.goto(`${site.url}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Умный помощник');
    const tariffs =
      (await page.locator('#pricing, #tariffs, section').filter({ hasText: '350' }).first().textContent()) ?? '';
    expect(tariffs).toMatch(/350/);
    expect(tariffs).toMatch(/1[\s\u00a0\u202f]?250/);
    // The site's first year (2024) to this one, never a stale year alone.
    await expect(page.locator('footer').textContent()).resolves.toContain(`© 2024–${new Date().getFullYear()} `);
    await screenshot(page, 'home');
  });

  test('an unknown path shows the not-found page with a link home', async () => {
    await page.goto(`${site.url}/no/such/page`);
    await expect(page.getByRole('heading', { name: 'Страница не найдена' }).isVisible()).resolves.toBe(true);
    await page.getByRole('main').getByRole('link', { name: /главн/i }).click();
    await page.waitForURL(`${site.url}/`);
    await screenshot(page, 'not-found');
  });

  test('/admin without a token lands on /login', async () => {
    await page.goto(`${site.url}/admin`);
    await page.waitForURL(`${site.url}/login`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Вход');
    await screenshot(page, 'login-from-admin');
  });

  /** Stores a session in the browser as a login does. */
  const signIn = (token: string) =>
    storeSession(page, site.url, { token, user: { id: 1, email: 'u@example.com', role: 'user' } });

  test('/admin for a signed-in non-admin lands on /dashboard', async () => {
    // A token the gateway accepts; with the auth service down the profile load fails and the session stays.
    await signIn(signAccessToken({ sub: '1', role: 'user', ver: 0 }, JWT_SECRET));
    await page.goto(`${site.url}/admin/users`);
    await page.waitForURL(`${site.url}/dashboard`);
  });

  test('a stored token the gateway refuses ends the session: /dashboard lands on /login with its message', async () => {
    await signIn('x.y.z');
    await page.goto(`${site.url}/dashboard`);
    await page.waitForURL(`${site.url}/login`);
    await page.getByRole('alert').filter({ hasText: 'Недействительный токен авторизации' }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
  });
});

describe('the tab the browser tests share', () => {
  test('is handed out again as a new one: the same renderer, with no session, cookie, route or listener left', async () => {
    await page.goto(`${site.url}/robots.txt`);
    await page.evaluate(() => {
      localStorage.setItem('token', 'left-behind');
      document.cookie = 'left=behind; path=/';
    });
    await page.route('**/robots.txt', (route) => route.fulfill({ body: 'routed' }));
    const heard: string[] = [];
    page.on('request', (request) => heard.push(request.url()));

    const again = await tab.open({ width: 390, height: 844 });
    expect(again).toBe(page);
    await again.goto(`${site.url}/robots.txt`);
    await expect(again.evaluate(() => [localStorage.length, document.cookie])).resolves.toEqual([0, '']);
    await expect(again.locator('body').textContent()).resolves.not.toContain('routed');
    expect(heard).toEqual([]);
    expect(again.viewportSize()).toEqual({ width: 390, height: 844 });
  });
});
