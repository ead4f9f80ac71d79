import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { TEST_SECRETS } from '@gpt/kit/testing';
import { callApi, MANY_USERS_ENV, signUp, startTestStack, type TestStack } from '../src/testing';

/**
 * No lag a user can see: a payment, a balance or a hold a moment after sign-up never fails because
 * billing's copy of the user is still on its way by event; billing reads the user through from auth.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(MANY_USERS_ENV);
}, 60_000);
afterAll(() => stack?.close());

const botKey = TEST_SECRETS.BOT_API_KEY;
const inBatches = async <T>(count: number, size: number, run: (index: number) => Promise<T>): Promise<T[]> => {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, i) => run(start + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
};

describe('right after sign-up', () => {
  test('register then pay at once, 50 times: every payment is created, never «не готов к оплате»', async () => {
    const statuses = await inBatches(50, 10, async () => {
      const registered = await signUp(stack.url);
      const payment = await callApi(stack.url, 'POST', '/api/billing/payments', {
        token: registered.token,
        body: { amount: '100.00' },
      });
      return payment.status;
    });
    expect(statuses).toEqual(Array<number>(50).fill(201));
  }, 120_000);

  test('a Telegram user the bot has just registered has their welcome grant and can be held against at once, 50 times', async () => {
    const answers = await inBatches(50, 10, async (index) => {
      const telegramId = 9_100_000_000 + Math.floor(Math.random() * 1_000_000) * 100 + index;
      const user = await callApi(stack.url, 'POST', '/api/bot/users', { botKey, body: { telegram_id: telegramId } });
      expect(user.status).toBe(200);
      const [balance, hold] = await Promise.all([
        callApi(stack.url, 'GET', `/api/bot/balance?telegram_id=${telegramId}`, { botKey }),
        callApi(stack.url, 'POST', '/api/bot/holds', { botKey, body: { telegram_id: telegramId, amount: 1 } }),
      ]);
      // The welcome grant comes with the balance: the /start answer shows it and the first question is paid.
      return [balance.status, (balance.body as { welcome_credits?: number }).welcome_credits, hold.status];
    });
    expect(answers).toEqual(Array(50).fill([200, 2000, 201]));
  }, 120_000);
});
