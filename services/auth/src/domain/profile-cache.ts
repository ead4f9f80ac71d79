import { type AnswerCache, type AnswerCacheDeps, serviceAnswerCache } from '@gpt/kit';
import type { Transaction } from 'kysely';
import type { AuthDatabase } from '../data/schema';
import type { AuthDeps } from '../deps';

/** Profiles kept at once; the least recently made go first. */
const PROFILES_MAX = 10_000;
/** The longest a profile is kept, should a change's announcement to the other replicas be lost. */
const PROFILE_MAX_AGE_MS = 30_000;

/**
 * The finished `GET /api/auth/profile` answers of one running service, by user id, made once by its
 * wiring (`deps.profiles`). A change to a user's row drops that user's answer after its commit,
 * here and, through the Redis channel `<REDIS_KEY_PREFIX>auth:profile:changed`, in every other replica.
 */
export const profileCache = (deps: AnswerCacheDeps): AnswerCache =>
  serviceAnswerCache(deps, 'auth:profile', { maxEntries: PROFILES_MAX, maxAgeMs: PROFILE_MAX_AGE_MS });

/** The user's profile changed (after the commit): its kept answer goes, in every replica. */
export const profileChanged = (deps: AuthDeps, userId: number) => deps.profiles.changed(String(userId));

/**
 * Runs `work` in a bus transaction; `changed(userId)` names a user whose profile it changes, and
 * once the transaction has committed those profiles are dropped (a rollback drops nothing).
 */
export async function changingProfiles<T>(
  deps: AuthDeps,
  work: (trx: Transaction<AuthDatabase>, changed: (userId: number) => void) => Promise<T>,
): Promise<T> {
  const changedIds = new Set<number>();
  const result = await deps.bus.transaction((trx) => work(trx, (userId) => changedIds.add(userId)));
  for (const userId of changedIds) profileChanged(deps, userId);
  return result;
}
