import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { KeyValue } from './kv';

export interface AttemptLimit {
  /** Names the counters in Redis; one name per limit. */
  name: string;
  points: number;
  windowSec: number;
}

/**
 * Attempts per key per window, counted in Redis when the service runs on it (every replica shares
 * the count), in memory otherwise.
 */
export function attemptLimiter(kv: KeyValue, limit: AttemptLimit) {
  const options = { keyPrefix: `rl:${limit.name}`, points: limit.points, duration: limit.windowSec };
  const limiter = kv.redis
    ? new RateLimiterRedis({ ...options, storeClient: kv.redis })
    : new RateLimiterMemory(options);
  return {
    /** Counts one attempt; resolves to the seconds to wait when over the limit, else 0. */
    async consume(key: string): Promise<number> {
      try {
        await limiter.consume(key);
        return 0;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw err;
      }
    },
  };
}
export type AttemptLimiter = ReturnType<typeof attemptLimiter>;
