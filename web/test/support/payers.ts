import { busOf, signUp, type TestStack } from '@gpt/deploy/testing';
import type { Page } from 'playwright-core';

/** Waits until billing has taken auth's user.registered for this user (it then knows whom a payment is for). */
export function billingKnows(stack: TestStack, userId: number) {
  return busOf(stack, 'billing').waitFor(
    'acked',
    (e) => e.type === 'user.registered' && (e.data as { user_id: number }).user_id === userId,
  );
}

/** A new web account, registered through the API, that billing already knows; with its session. */
export async function registeredPayer(stack: TestStack) {
  const payer = await signUp(stack.url);
  await billingKnows(stack, payer.id);
  return payer;
}

/**
 * Signs the page in with a session, as the login page leaves it in the browser's storage. Stored from a plain
 * document of the site (robots.txt): loading the app only to leave it again would double each test's page loads.
 */
export async function storeSession(page: Page, siteUrl: string, session: { token: string; user: unknown }) {
  await page.goto(`${siteUrl}/robots.txt`);
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
}
