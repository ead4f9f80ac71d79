/**
 * The signed-in user as the browser keeps it (login/register response, then the profile).
 * Profile fields beyond the spec's list are kept but not relied upon.
 */
export interface SessionUser {
  id?: number | string;
  email: string;
  /** 'admin' or anything else (treated as a plain user). */
  role: string;
  username?: string | null;
  created_at?: string | null;
  tariff_name?: string | null;
  credits?: number | string | null;
  included_credits?: number | string | null;
  /** Reserved by the bot for calls in progress. */
  held_credits?: number | string | null;
  /** credits + included_credits − held_credits: what can still be spent. */
  available_credits?: number | string | null;
  /** Free credits given once on sign-up (0: none). */
  welcome_credits?: number | string | null;
  monthly_price?: number | string | null;
  tariff_end_date?: string | null;
  telegram_linked?: boolean;
  telegram_id?: number | string | null;
  telegram_username?: string | null;
  telegram_email?: string | null;
}

export interface AuthResponse {
  token: string;
  user: SessionUser;
}

export interface Credentials {
  email: string;
  password: string;
}

/** Registration also carries the utm_source the visitor landed with. */
export interface Registration extends Credentials {
  utm_source?: string | null;
}

/** The token of a recovery link (`/reset-password/{token}`) and the new password. */
export interface PasswordResetConfirmInput {
  token: string;
  newPassword: string;
}

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/** Every older token is revoked by a password change; the answer carries the one to use now. */
export interface ChangePasswordResponse {
  success: true;
  message: string;
  token: string;
}

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
