import { type KeyValue, tokenVersionKey } from '@gpt/kit';
import type { User } from '../data/users.repository';

/** Tokens live 30 days; after that no token older than a deleted account's last version exists. */
const DELETED_ACCOUNT_KEY_TTL_SEC = 31 * 24 * 60 * 60;

/**
 * Tells the gateway and the services the user's current token version, so older tokens are
 * refused. Called inside the transaction that bumped it (its row lock orders the writes), before
 * the commit: if the store is down the change is rolled back rather than left unenforced.
 */
export async function publishTokenVersion(kv: KeyValue, user: Pick<User, 'id' | 'tokenVersion'>): Promise<void> {
  await kv.set(tokenVersionKey(String(user.id)), String(user.tokenVersion));
}

/** Revokes every token of a deleted account. */
export async function revokeDeletedAccount(kv: KeyValue, user: Pick<User, 'id' | 'tokenVersion'>): Promise<void> {
  await kv.set(tokenVersionKey(String(user.id)), String(user.tokenVersion + 1), DELETED_ACCOUNT_KEY_TTL_SEC);
}
