import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type AccessClaims,
  accessTokenVerifier,
  AppError,
  bearerToken,
  forbidden,
  type KeyValue,
  type Logger,
  tokenRevoked,
  tokenVersionKey,
  unauthorized,
} from '@gpt/kit';
import type { Access } from './route-table';
import { withTimeout } from './timeout';

/**
 * A user's token version read from the store is used as is for FRESH ms; up to STALE ms it is still
 * used while a re-read runs in the background (so steady traffic never waits on the store); past
 * that a request waits for the read. A version bump therefore applies within about a second.
 */
const TOKEN_VERSION_FRESH_MS = 400;
const TOKEN_VERSION_STALE_MS = 900;
/** A store that does not answer in time does not hold the request up (the service checks again). */
const TOKEN_VERSION_READ_TIMEOUT_MS = 250;
const VERSIONS_CACHE_MAX = 50_000;

export const invalidBotKey = () => new AppError('Неверный ключ бота', 'invalid_bot_key', 401);

type Outcome = AccessClaims | null | AppError;

/**
 * The gateway's checks: JWT (HS256 pinned, by the kit), token version, admin role, bot key.
 * `check` answers synchronously whenever it can (public and bot routes, and every repeat of a token
 * whose version was read recently): the hot path allocates no promise and never waits on Redis.
 */
export function createAccessControl(options: { jwtSecret: string; botApiKey: string; kv: KeyValue; logger: Logger }) {
  const { jwtSecret, kv, logger } = options;
  const botKeyDigest = sha256(options.botApiKey);

  const verifyToken = accessTokenVerifier(jwtSecret);

  const versions = new Map<string, { ver: number; readAt: number }>();
  const pending = new Map<string, Promise<number>>();
  const readVersion = (sub: string): Promise<number> => {
    let read = pending.get(sub);
    if (!read) {
      // Stamped with when the read started: what it returns is at least that recent.
      const readAt = Date.now();
      read = withTimeout(kv.get(tokenVersionKey(sub)), TOKEN_VERSION_READ_TIMEOUT_MS)
        .then((value) => (value === null ? 0 : Number(value)))
        .catch((err: unknown) => {
          // Fail open on a store outage: the service behind verifies the version again.
          logger.warn({ err, sub }, 'token version unreadable; using the last known one');
          return versions.get(sub)?.ver ?? 0;
        })
        .then((ver) => {
          if (versions.size >= VERSIONS_CACHE_MAX) versions.delete(versions.keys().next().value as string);
          versions.delete(sub); // re-inserted last, so eviction drops the least recently read
          versions.set(sub, { ver, readAt });
          pending.delete(sub);
          return ver;
        });
      pending.set(sub, read);
    }
    return read;
  };

  const judge = (claims: AccessClaims, ver: number, access: Access): Outcome => {
    if (claims.ver < ver) return tokenRevoked();
    if (access === 'admin' && claims.role !== 'admin') return forbidden();
    return claims;
  };

  /** null = let it through (no identity); claims = let it through as this user; AppError = refuse. */
  function check(
    access: Access,
    authorization: string | undefined,
    botKey: string | string[] | undefined,
  ): Outcome | Promise<Outcome> {
    if (access === 'public') return null;
    if (access === 'bot') return isBotKey(botKey, botKeyDigest) ? null : invalidBotKey();
    if (!authorization) return unauthorized();
    let claims: AccessClaims;
    try {
      claims = verifyToken(bearerToken(authorization) ?? '');
    } catch (err) {
      return err instanceof AppError ? err : unauthorized();
    }
    const known = versions.get(claims.sub);
    if (known) {
      const age = Date.now() - known.readAt;
      if (age < TOKEN_VERSION_FRESH_MS) return judge(claims, known.ver, access);
      if (age < TOKEN_VERSION_STALE_MS) {
        void readVersion(claims.sub);
        return judge(claims, known.ver, access);
      }
    }
    return readVersion(claims.sub).then((ver) => judge(claims, ver, access));
  }

  return { check };
}

export type AccessControl = ReturnType<typeof createAccessControl>;

function isBotKey(given: string | string[] | undefined, expectedDigest: Buffer): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  // Comparing digests keeps the comparison constant-time even when the lengths differ.
  return timingSafeEqual(sha256(given), expectedDigest);
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
