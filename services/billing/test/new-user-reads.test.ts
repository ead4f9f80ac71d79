import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { apiRoutes } from '@gpt/contracts/openapi';
import { startTestService, type TestService, uniqueName } from '@gpt/kit/testing';
import { type AuthConfig, loadAuthConfig } from '../../auth/src/config';
import type { AuthDatabase } from '../../auth/src/data/schema';
import { authService } from '../../auth/src/service';
import { startBillingHarness, type BillingHarness } from './support/harness';

// auth and billing on separate exchanges: billing never hears auth's user.registered, as in the moments
// right after a sign-up before the event arrives.
let auth: TestService<AuthConfig, AuthDatabase>;
let h: BillingHarness;

beforeAll(async () => {
  auth = await startTestService(authService, loadAuthConfig);
  h = await startBillingHarness({ AUTH_URL: auth.url });
});
afterAll(async () => {
  await h.stop();
  await auth.stop();
});

/** Signs a new person up on the site (auth only); answers their token. */
async function signUp(): Promise<string> {
  const res = await fetch(`${auth.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `${uniqueName('fresh')}@example.com`, password: 'secret123' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** Every read of the signed-in user's own billing (no path parameters), from the contracts' route list. */
const userReads = apiRoutes.filter(
  (route) =>
    route.service === 'billing' && route.access === 'user' && route.method === 'get' && !route.path.includes('{'),
);

describe('a user signed up a moment ago, before billing has heard of them', () => {
  test('the reads of their own billing are there to check', () => {
    expect(userReads.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/api/billing/balance', '/api/billing/referrals', '/api/billing/payments']),
    );
  });

  test.each(userReads.map((route) => [route.path, route] as const))(
    'when the account page reads %s, then it answers 200, never «not ready yet»',
    async (path) => {
      const token = await signUp();

      const res = await h.call('GET', path, { token });

      expect(res).toMatchObject({ status: 200 });
    },
  );

  test('the referral link carries the code auth gave the new account', async () => {
    const res = await h.call<{ referral_code: string; site_link: string }>('GET', '/api/billing/referrals', {
      token: await signUp(),
    });

    expect(res.status).toBe(200);
    expect(res.body.referral_code).toMatch(/\S/);
    expect(res.body.site_link).toContain(`?ref=${res.body.referral_code}`);
  });
});
