import type {
  AuthResponse,
  ChangePasswordRequest,
  ChangePasswordResponse,
  LoginRequest,
  PasswordResetConfirmRequest,
  PasswordResetConfirmResponse,
  RegisterRequest,
  UserProfile,
} from '@gpt/contracts';

import { api } from '../api-client';

/** POST /api/auth/login → { token, user } */
export function postLogin(input: LoginRequest): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login', input);
}

/** POST /api/auth/register → { token, user } */
export function postRegister(input: RegisterRequest): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', input);
}

/** GET /api/auth/profile (bearer) → the user object */
export function getProfile(): Promise<UserProfile> {
  return api.get<UserProfile>('/api/auth/profile');
}

/** POST /api/auth/change-password (bearer) → { success, message, token } */
export function postChangePassword(input: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return api.post<ChangePasswordResponse>('/api/auth/change-password', input);
}

/** POST /api/auth/password-reset/confirm → { token, user, message }: the new password, every older session ended */
export function postPasswordResetConfirm(input: PasswordResetConfirmRequest): Promise<PasswordResetConfirmResponse> {
  return api.post<PasswordResetConfirmResponse>('/api/auth/password-reset/confirm', input);
}
