import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import type { TestStack } from '@gpt/deploy/testing';
import type { Browser, Page } from 'playwright-core';
import { callApi } from './api';
import { launchChromium } from './browser';
import { storeSession } from './payers';
import { Tab } from './tab';

export interface BrowserSuite {
  stack: TestStack;
  browser: Browser;
  /** The file's tab, handed to each test as a new one (tab.ts). */
  page: Page;
}

/**
 * The hooks a browser test file needs: the product started once (by `start`, which may prepare it
 * further), one Chromium, and a tab at `width` px, as new for every test. Read the fields inside tests.
 */
export function browserSuite(start: () => Promise<TestStack>, width = 1280): BrowserSuite {
  const suite = {} as BrowserSuite;
  const tab = new Tab(
    () => suite.browser,
    () => suite.stack.url,
  );
  beforeAll(async () => {
    suite.stack = await start();
    suite.browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.close();
  });
  beforeEach(async () => {
    suite.page = await tab.open({ width, height: 900 });
  });
  return suite;
}

/** Signs the suite's page in as the stack's admin; answers the admin's token. */
export async function signInAsAdmin({ stack, page }: BrowserSuite): Promise<string> {
  const login = await callApi<{ token: string; user: unknown }>(stack.url, 'POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  await storeSession(page, stack.url, login.body);
  return login.body.token;
}
