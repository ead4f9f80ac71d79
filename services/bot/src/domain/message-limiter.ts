import type { KeyValue } from '@gpt/kit';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Attempts per user per window: paid requests per minute (the `bot_messages_per_minute` setting)
 * by default, promo code guesses with their own name and window. Counted in Redis when the service
 * runs on it, so every replica shares the count; in memory otherwise.
 */
export function messageLimiter(
  kv: KeyValue,
  window: { name: string; seconds: number } = { name: 'bot-messages', seconds: 60 },
) {
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number) => {
    let limiter = limiters.get(points);
    if (!limiter) {
      const options = { keyPrefix: `${window.name}-${points}`, points, duration: window.seconds };
      limiter = kv.redis ? new RateLimiterRedis({ ...options, storeClient: kv.redis }) : new RateLimiterMemory(options);
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return {
    /** Counts one request; resolves to the seconds to wait when over the limit, else 0. */
    async consume(telegramId: number, perMinute: number): Promise<number> {
      try {
        await limiterFor(perMinute).consume(String(telegramId));
        return 0;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw err;
      }
    },
  };
}
export type MessageLimiter = ReturnType<typeof messageLimiter>;
