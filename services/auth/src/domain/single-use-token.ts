import { createHash, randomBytes } from 'node:crypto';
import type { AppError } from '@gpt/kit';

/** A link token is kept only as this hash, so the database never holds a usable link. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new single-use token valid `ttlMin` minutes: the token for the link, its hash to store, its end. */
export function newSingleUseToken(ttlMin: number) {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token), expiresAt: new Date(Date.now() + ttlMin * 60_000) };
}

/** A stored token as the hash found it: refused when unknown, already used or past its end. */
export function assertUsable<T extends { usedAt: Date | null; expiresAt: Date }>(
  stored: T | undefined,
  errors: { unknown(): AppError; used(): AppError; expired(): AppError },
): T {
  if (!stored) throw errors.unknown();
  if (stored.usedAt) throw errors.used();
  if (stored.expiresAt.getTime() <= Date.now()) throw errors.expired();
  return stored;
}
