import { createHash } from 'node:crypto';
import type { KeyValue, Logger } from '@gpt/kit';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config';

export interface Limit {
  name: string;
  points: number;
  windowSec: number;
}

export interface RateLimitPolicy {
  /** Per client IP. */
  perIp: Limiter;
  /** Per account, keyed by a hash of the e-mail in the JSON body (login only). */
  perAccount?: Limiter;
}

export interface Limiter {
  /** Counts one attempt; resolves to the seconds to wait when over the limit, else 0. */
  consume(key: string): Promise<number>;
  /** Forgets the key's attempts (a successful login clears its account's count). */
  reset(key: string): Promise<void>;
}

/**
 * Limits on the routes people can abuse without a token. Redis keeps the counts when the gateway
 * runs on Redis, so every replica shares them; memory otherwise (the embedded default, one process).
 * A Redis outage falls back to per-process counting rather than refusing logins.
 */
export function createRateLimits(options: { config: GatewayConfig; kv: KeyValue; logger: Logger }) {
  const { config, kv, logger } = options;
  const make = (limit: Limit) => createLimiter(limit, kv, logger);

  const policies = new Map<string, RateLimitPolicy>([
    [
      'POST /api/auth/login',
      {
        perIp: make({
          name: 'login-ip',
          points: config.RATE_LIMIT_LOGIN_POINTS,
          windowSec: config.RATE_LIMIT_LOGIN_WINDOW_SEC,
        }),
        perAccount: make({
          name: 'login-account',
          points: config.RATE_LIMIT_LOGIN_ACCOUNT_POINTS,
          windowSec: config.RATE_LIMIT_LOGIN_ACCOUNT_WINDOW_SEC,
        }),
      },
    ],
    [
      'POST /api/auth/register',
      {
        perIp: make({
          name: 'register-ip',
          points: config.RATE_LIMIT_REGISTER_POINTS,
          windowSec: config.RATE_LIMIT_REGISTER_WINDOW_SEC,
        }),
      },
    ],
    [
      'POST /api/feedback',
      {
        perIp: make({
          name: 'feedback-ip',
          points: config.RATE_LIMIT_FEEDBACK_POINTS,
          windowSec: config.RATE_LIMIT_FEEDBACK_WINDOW_SEC,
        }),
      },
    ],
  ]);

  return {
    /** The policy for a request, by method and normalized path; undefined for almost every request. */
    policyFor(method: string | undefined, normalizedPath: string): RateLimitPolicy | undefined {
      // Only POSTs are limited: skip the string concatenation for every read.
      return method === 'POST' ? policies.get(`POST ${normalizedPath}`) : undefined;
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

function createLimiter(limit: Limit, kv: KeyValue, logger: Logger): Limiter {
  const common = { points: limit.points, duration: limit.windowSec, keyPrefix: `gw:rl:${limit.name}` };
  const memory = new RateLimiterMemory(common);
  const limiter: RateLimiterAbstract =
    kv.kind === 'redis' && kv.redis
      ? new RateLimiterRedis({
          ...common,
          storeClient: kv.redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;

  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        // Neither Redis nor the insurance limiter answered: let the request through, the service limits too.
        logger.warn({ err: rejection, limiter: limit.name }, 'rate limiter unavailable');
        return 0;
      }
    },
    async reset(key) {
      await limiter.delete(key).catch((err: unknown) => {
        logger.warn({ err, limiter: limit.name }, 'rate limiter reset failed');
      });
    },
  };
}

/** The account key: a hash, so e-mail addresses never sit in Redis in clear. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 32);
}
