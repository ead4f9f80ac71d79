import type { UserProfile } from '@gpt/contracts';

/**
 * The signed-in user as the browser keeps it: the contracts' profile. A user stored by an older
 * version of the site may lack fields added since, so all but the e-mail and the role are optional.
 */
export type SessionUser = Pick<UserProfile, 'email' | 'role'> & Partial<UserProfile>;

export interface SessionState {
  token: string | null;
  user: SessionUser | null;
  /** True while an auth action (login, register, profile, password change) runs. */
  loading: boolean;
  /** Message of the last failed auth action; cleared when the next one starts. */
  error: string | null;
  /** Why the server ended the last session (a 401 on the profile); shown on /login until the next sign-in. */
  endedBecause: string | null;
}

export function isAdmin(user: SessionUser | null | undefined): boolean {
  return user?.role === 'admin';
}
