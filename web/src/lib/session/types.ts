import type { UserProfile } from '@gpt/contracts';

/**
 * The signed-in user as the browser keeps it: the contracts' profile. A user stored by an older
 * version of the site may lack fields added since, so all but the e-mail and the role are optional.
 */
export type SessionUser = Pick<UserProfile, 'email' | 'role'> & Partial<UserProfile>;

export function isAdmin(user: SessionUser | null | undefined): boolean {
  return user?.role === 'admin';
}
