import { api } from '../api-client';
import type {
  AuthResponse,
  ChangePasswordInput,
  ChangePasswordResponse,
  Credentials,
  PasswordResetConfirmInput,
  Registration,
  SessionUser,
} from './types';

/** POST /api/auth/login → { token, user } */
export function postLogin(input: Credentials): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login', input);
}

/** POST /api/auth/register → { token, user } */
export function postRegister(input: Registration): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', input);
}

/** GET /api/auth/profile (bearer) → the user object */
export function getProfile(): Promise<SessionUser> {
  return api.get<SessionUser>('/api/auth/profile');
}

/** POST /api/auth/change-password (bearer) → { success, message, token } */
export function postChangePassword(input: ChangePasswordInput): Promise<ChangePasswordResponse> {
  return api.post<ChangePasswordResponse>('/api/auth/change-password', input);
}

/** POST /api/auth/password-reset/confirm → { token, user, message }: the new password, every older session ended */
export function postPasswordResetConfirm(input: PasswordResetConfirmInput): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/password-reset/confirm', input);
}
