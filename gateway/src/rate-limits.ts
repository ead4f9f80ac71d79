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
  perIp?: Limiter;
  /** Per signed-in user (the token's subject). */
  perUser?: Limiter;
  /** Login only, keyed by a hash of the e-mail in the JSON body. */
  perAccount?: AccountLimits;
}

/**
 * OWASP's account protection without a lockout anyone can trigger: one address guessing at one
 * account is stopped (429); guesses at one account from everywhere only slow its logins down, so a
 * stranger's failures never keep the owner, signing in from an address of their own, out.
 */
export interface AccountLimits {
  /** Per account and client address. */
  perAddress: Limiter;
  /** Attempts at the account from every address; past `points` each login waits longer. */
  overall: Counter;
  /** The wait before a login whose account has seen `attempts` attempts this window. */
  delayMs(attempts: number): number;
}

export interface Limiter {
  /** Counts one attempt; resolves to the seconds to wait when over the limit, else 0. */
  consume(key: string): Promise<number>;
  /** Forgets the key's attempts (a successful login clears its account's count). */
  reset(key: string): Promise<void>;
}

export interface Counter {
  /** Counts one attempt; resolves to the attempts of this window so far, this one included. */
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

/** The login slow-down: +500 ms for each attempt past the account's allowance, at most 3 s. */
const SLOWDOWN_STEP_MS = 500;
const SLOWDOWN_MAX_MS = 3000;

/**
 * Limits on the routes people can abuse without a token. Redis keeps the counts when the gateway
 * runs on Redis, so every replica shares them; memory otherwise (the embedded default, one process).
 * A Redis outage falls back to per-process counting rather than refusing logins.
 */
export function createRateLimits(options: { config: GatewayConfig; kv: KeyValue; logger: Logger }) {
  const { config, kv, logger } = options;
  const make = (limit: Limit) => createLimiter(limit, kv, logger);
  const accountPoints = config.RATE_LIMIT_LOGIN_ACCOUNT_POINTS;
  const accountWindow = config.RATE_LIMIT_LOGIN_ACCOUNT_WINDOW_SEC;

  const policies = new Map<string, RateLimitPolicy>([
    [
      'POST /api/auth/login',
      {
        perIp: make({
          name: 'login-ip',
          points: config.RATE_LIMIT_LOGIN_POINTS,
          windowSec: config.RATE_LIMIT_LOGIN_WINDOW_SEC,
        }),
        perAccount: {
          perAddress: make({ name: 'login-account-ip', points: accountPoints, windowSec: accountWindow }),
          overall: createCounter({ name: 'login-account', windowSec: accountWindow }, kv, logger),
          delayMs: (attempts) => Math.min(SLOWDOWN_MAX_MS, Math.max(0, attempts - accountPoints) * SLOWDOWN_STEP_MS),
        },
      },
    ],
    [
      'POST /api/auth/change-password',
      {
        perUser: make({
          name: 'password-change-user',
          points: config.RATE_LIMIT_PASSWORD_CHANGE_POINTS,
          windowSec: config.RATE_LIMIT_PASSWORD_CHANGE_WINDOW_SEC,
        }),
      },
    ],
    [
      'POST /api/billing/payments',
      {
        perUser: make({
          name: 'payment-user',
          points: config.RATE_LIMIT_PAYMENT_POINTS,
          windowSec: config.RATE_LIMIT_PAYMENT_WINDOW_SEC,
        }),
      },
    ],
    [
      'POST /api/billing/promo-codes/redeem',
      {
        perIp: make({
          name: 'promo-ip',
          points: config.RATE_LIMIT_PROMO_IP_POINTS,
          windowSec: config.RATE_LIMIT_PROMO_WINDOW_SEC,
        }),
        perUser: make({
          name: 'promo-user',
          points: config.RATE_LIMIT_PROMO_POINTS,
          windowSec: config.RATE_LIMIT_PROMO_WINDOW_SEC,
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
      'POST /api/auth/password-reset',
      {
        perIp: make({
          name: 'password-reset-ip',
          points: config.RATE_LIMIT_PASSWORD_RESET_POINTS,
          windowSec: config.RATE_LIMIT_PASSWORD_RESET_WINDOW_SEC,
        }),
      },
    ],
    [
      'POST /api/auth/password-reset/confirm',
      {
        perIp: make({
          name: 'password-reset-confirm-ip',
          points: config.RATE_LIMIT_PASSWORD_RESET_CONFIRM_POINTS,
          windowSec: config.RATE_LIMIT_PASSWORD_RESET_CONFIRM_WINDOW_SEC,
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

/** rate-limiter-flexible on Redis when there is one (with a per-process insurance), else in memory. */
function storeFor(limit: Limit, kv: KeyValue): RateLimiterAbstract {
  const common = { points: limit.points, duration: limit.windowSec, keyPrefix: `gw:rl:${limit.name}` };
  const memory = new RateLimiterMemory(common);
  return kv.kind === 'redis' && kv.redis
    ? new RateLimiterRedis({ ...common, storeClient: kv.redis, rejectIfRedisNotReady: true, insuranceLimiter: memory })
    : memory;
}

const resetIn = (limiter: RateLimiterAbstract, limit: Pick<Limit, 'name'>, logger: Logger) => async (key: string) => {
  await limiter.delete(key).catch((err: unknown) => {
    logger.warn({ err, limiter: limit.name }, 'rate limiter reset failed');
  });
};

/** Counts without ever refusing; an unavailable store counts nothing (the per-address limit still holds). */
function createCounter(limit: Omit<Limit, 'points'>, kv: KeyValue, logger: Logger): Counter {
  const counter = storeFor({ ...limit, points: Number.MAX_SAFE_INTEGER }, kv);
  return {
    async count(key) {
      try {
        return (await counter.consume(key)).consumedPoints;
      } catch (err) {
        logger.warn({ err, limiter: limit.name }, 'rate limiter unavailable');
        return 0;
      }
    },
    reset: resetIn(counter, limit, logger),
  };
}

function createLimiter(limit: Limit, kv: KeyValue, logger: Logger): Limiter {
  const limiter = storeFor(limit, kv);
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
    reset: resetIn(limiter, limit, logger),
  };
}

/** The account key: a hash, so e-mail addresses never sit in Redis in clear. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 32);
}
