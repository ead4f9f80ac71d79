import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { RunningGateway } from '@gpt/gateway';
import { signAccessToken } from '@gpt/kit';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser';
import { startSite } from '../support/site';

const JWT_SECRET = 'shell-e2e-jwt-secret-0123456789abcdef';

let site: RunningGateway;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  site = await startSite({ JWT_SECRET });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterEach(() => page.close());

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
  async function storeSession(token: string) {
    await page.goto(`${site.url}/`);
    await page.evaluate((stored) => {
      localStorage.setItem('token', stored);
      localStorage.setItem('user', JSON.stringify({ id: 1, email: 'u@example.com', role: 'user' }));
    }, token);
  }

  test('/admin for a signed-in non-admin lands on /dashboard', async () => {
    // A token the gateway accepts; with the auth service down the profile load fails and the session stays.
    await storeSession(signAccessToken({ sub: '1', role: 'user', ver: 0 }, JWT_SECRET));
    await page.goto(`${site.url}/admin/users`);
    await page.waitForURL(`${site.url}/dashboard`);
  });

  test('a stored token the gateway refuses ends the session: /dashboard lands on /login with its message', async () => {
    await storeSession('x.y.z');
    await page.goto(`${site.url}/dashboard`);
    await page.waitForURL(`${site.url}/login`);
    await page.getByRole('alert').filter({ hasText: 'Недействительный токен авторизации' }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
  });
});
