import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { MANY_USERS_ENV, type TestStack } from '@gpt/deploy/testing';
import type { Browser, Page } from 'playwright-core';
import { startOutsideParties, type OutsideParties } from '../../../services/bot/test/support/outside-parties';
import { launchChromium, screenshot } from '../support/browser';
import { startSelfAddressedStack } from '../support/site';

/**
 * «Войти через Telegram» on /login with a real bot (a token and its username; Telegram itself is the fake on
 * localhost): Telegram's widget script is an outside party, so the browser gets a stand-in from telegram.org's
 * address that draws a button and hands the page the data Telegram signs with the bot's token — or a forgery.
 */
const BOT_USERNAME = 'gpt_widget_test_bot';
let outside: OutsideParties;
let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  outside = await startOutsideParties();
  stack = await startSelfAddressedStack({ ...MANY_USERS_ENV, ...outside.env, TELEGRAM_BOT_USERNAME: BOT_USERNAME });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await Promise.all([outside?.telegram.close(), outside?.openai.close()]);
});

/** What Telegram hands the page for a user, signed as https://core.telegram.org/widgets/login says (or forged). */
function widgetLogin(telegramId: number, forged = false) {
  const fields: Record<string, string | number> = {
    id: telegramId,
    first_name: 'Вера',
    username: `vera_${telegramId}`,
    auth_date: Math.floor(Date.now() / 1000),
  };
  const checked = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const key = createHash('sha256')
    .update(forged ? 'not-the-bot-token' : outside.env.TELEGRAM_BOT_TOKEN!)
    .digest();
  return { ...fields, hash: createHmac('sha256', key).update(checked).digest('hex') };
}

/**
 * Telegram's widget script as the page meets it: it reads its own `data-` attributes and draws a button that
 * calls the page's `data-onauth` function with the user. It records what it was told to draw for.
 */
async function standInWidget(page: Page, login: Record<string, unknown>) {
  await page.route('https://telegram.org/js/telegram-widget.js*', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `(() => {
        const script = document.currentScript;
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Telegram: ' + script.dataset.telegramLogin;
        button.onclick = () => window[script.dataset.onauth.replace(/\\(.*$/, '')](${JSON.stringify(login)});
        script.after(button);
      })();`,
    }),
  );
}

test.each([
  ['desktop', 1280, 900],
  ['phone', 390, 844],
])(
  '%s: /login offers «Войти через Telegram» for the site’s bot; Telegram’s signed answer signs in and goes back to /chat',
  async (name, width, height) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    try {
      await standInWidget(page, widgetLogin(7_100_000_000 + width));
      await page.goto(`${stack.url}/chat`);
      await page.waitForURL(`${stack.url}/login`);
      const widget = page.getByTestId('telegram-login');
      await widget.getByText('Войти через Telegram').waitFor();
      const button = widget.getByRole('button', { name: `Telegram: ${BOT_USERNAME}` });
      await button.waitFor();
      await screenshot(page, `login-telegram-${name}`);
      await button.click();
      await page.waitForURL(`${stack.url}/chat`);
      await page.getByLabel('Сообщение', { exact: true }).waitFor();
      await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeTruthy();
    } finally {
      await context.close();
    }
  },
  60_000,
);

test('a forged widget answer is refused in Russian and signs nobody in', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await standInWidget(page, widgetLogin(7_200_000_000, true));
    await page.goto(`${stack.url}/login`);
    await page.getByRole('button', { name: `Telegram: ${BOT_USERNAME}` }).click();
    await page.getByRole('alert').filter({ hasText: 'Не удалось проверить вход через Telegram.' }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
    expect(page.url()).toBe(`${stack.url}/login`);
  } finally {
    await context.close();
  }
}, 60_000);
