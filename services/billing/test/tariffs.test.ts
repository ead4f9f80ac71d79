import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTestService, type TestService } from '@gpt/kit/testing';
import { loadBillingConfig } from '../src/config';
import type { BillingDatabase } from '../src/data/schema';
import { billingService } from '../src/service';

let billing: TestService<ReturnType<typeof loadBillingConfig>, BillingDatabase>;

beforeAll(async () => {
  billing = await startTestService(billingService, loadBillingConfig);
});
afterAll(() => billing.stop());

describe('GET /api/tariffs', () => {
  test('on first start, then the three plans of the spec exist with exact prices', async () => {
    const res = await fetch(`${billing.url}/api/tariffs`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { tariffs: Array<Record<string, unknown>> };
    expect(
      body.tariffs.map(({ name, monthly_price, credits_per_ruble, included_credits, can_generate_images }) => ({
        name,
        monthly_price,
        credits_per_ruble,
        included_credits,
        can_generate_images,
      })),
    ).toEqual([
      { name: 'Base', monthly_price: '0.00', credits_per_ruble: 100, included_credits: 0, can_generate_images: false },
      {
        name: 'Premium',
        monthly_price: '350.00',
        credits_per_ruble: 200,
        included_credits: 70000,
        can_generate_images: true,
      },
      {
        name: 'Elite',
        monthly_price: '1250.00',
        credits_per_ruble: 400,
        included_credits: 500000,
        can_generate_images: true,
      },
    ]);
  });

  test('the service is ready: database, broker and Redis reachable', async () => {
    const res = await fetch(`${billing.url}/readyz`);
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok', broker: 'ok', redis: 'ok' } });
  });
});
