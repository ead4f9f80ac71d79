import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import type { Browser } from 'playwright-core';
import { MANY_USERS_ENV } from '../support/api';
import { launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';

/** The product's words, as a signed-in person reads them at both widths. */
let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack(MANY_USERS_ENV);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('words a signed-in person reads', () => {
  test.each([1280, 390])(
    'at %i px: /pricing offers «Выбрать», never «Начать бесплатно», to someone who already has an account',
    async (width) => {
      const person = await signUp(stack.url);
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        await storeSession(page, stack.url, person);
        await page.goto(`${stack.url}/pricing`);
        const main = page.getByRole('main');
        await main.getByRole('link', { name: 'Выбрать', exact: true }).waitFor();
        await expect(main.getByText('Начать бесплатно').count()).resolves.toBe(0);
        await screenshot(page, `pricing-signed-in-${width}`);
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});
