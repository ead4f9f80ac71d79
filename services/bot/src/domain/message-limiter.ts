import { attemptLimiter, type AttemptLimiter, type KeyValue } from '@gpt/kit';

/**
 * Paid requests per user (at both doors) per minute (the `bot_messages_per_minute` setting). Counted in Redis when
 * the service runs on it, so every replica shares the count; in memory otherwise.
 */
export function messageLimiter(kv: KeyValue) {
  const limiters = new Map<number, AttemptLimiter>();
  const limiterFor = (points: number) => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = attemptLimiter(kv, { name: `bot-messages-${points}`, points, windowSec: 60 });
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return {
    /** Counts one request; resolves to the seconds to wait when over the limit, else 0. */
    consume: (userId: number, perMinute: number): Promise<number> => limiterFor(perMinute).consume(String(userId)),
  };
}
export type MessageLimiter = ReturnType<typeof messageLimiter>;
