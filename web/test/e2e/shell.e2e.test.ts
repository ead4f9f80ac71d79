import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { RunningGateway } from '@gpt/gateway';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser';
import { startSite } from '../support/site';

let site: RunningGateway;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  site = await startSite();
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
    await expect(page.locator('footer').textContent()).resolves.toContain('2024');
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

  test('/admin for a signed-in non-admin lands on /dashboard', async () => {
    await page.goto(`${site.url}/`);
    await page.evaluate(() => {
      localStorage.setItem('token', 'x.y.z');
      localStorage.setItem('user', JSON.stringify({ id: 1, email: 'u@example.com', role: 'user' }));
    });
    await page.goto(`${site.url}/admin/users`);
    await page.waitForURL(`${site.url}/dashboard`);
  });
});
