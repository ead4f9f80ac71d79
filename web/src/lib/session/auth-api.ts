import {
  AuthResponse,
  ChangePasswordResponse,
  PasswordResetConfirmResponse,
  UserProfile,
  type ChangePasswordRequest,
  type LoginRequest,
  type PasswordResetConfirmRequest,
  type RegisterRequest,
} from '@gpt/contracts';

import { api } from '../api-client';

/** POST /api/auth/login → { token, user } */
export function postLogin(input: LoginRequest): Promise<AuthResponse> {
  return api.post('/api/auth/login', AuthResponse, input);
}

/** POST /api/auth/register → { token, user } */
export function postRegister(input: RegisterRequest): Promise<AuthResponse> {
  return api.post('/api/auth/register', AuthResponse, input);
}

/** GET /api/auth/profile (bearer) → the user object */
export function getProfile(): Promise<UserProfile> {
  return api.get('/api/auth/profile', UserProfile);
}

/** POST /api/auth/change-password (bearer) → { success, message, token } */
export function postChangePassword(input: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return api.post('/api/auth/change-password', ChangePasswordResponse, input);
}

/** POST /api/auth/password-reset/confirm → { token, user, message }: the new password, every older session ended */
export function postPasswordResetConfirm(input: PasswordResetConfirmRequest): Promise<PasswordResetConfirmResponse> {
  return api.post('/api/auth/password-reset/confirm', PasswordResetConfirmResponse, input);
}
