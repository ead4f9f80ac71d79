import { expect } from '@jest/globals';
import type { TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import type { Page } from 'playwright-core';
import { callApi } from './api';

/** Waits until billing has taken auth's user.registered for this user (it then knows whom a payment is for). */
export function billingKnows(stack: TestStack, userId: number) {
  const billing = stack.services.find((service) => service.name === 'billing')!;
  return billing.deps.bus.waitFor(
    'acked',
    (e) => e.type === 'user.registered' && (e.data as { user_id: number }).user_id === userId,
  );
}

/** A new web account, registered through the API, that billing already knows; with its session. */
export async function registeredPayer(stack: TestStack, prefix: string) {
  const email = `${uniqueName(prefix)}@example.com`;
  const res = await callApi<{ token: string; user: { id: number } }>(stack.url, 'POST', '/api/auth/register', {
    body: { email, password: 'password1' },
  });
  expect(res.status).toBe(201);
  await billingKnows(stack, res.body.user.id);
  return { id: res.body.user.id, email, token: res.body.token, user: res.body.user };
}

/** Signs the page in with a session, as the login page leaves it in the browser's storage. */
export async function storeSession(page: Page, siteUrl: string, session: { token: string; user: unknown }) {
  await page.goto(`${siteUrl}/`);
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
}
