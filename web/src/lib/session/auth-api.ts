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
import { apiPath } from '@gpt/contracts/routes';

import { api } from '../api-client';

/** POST /api/auth/login → { token, user } */
export function postLogin(input: LoginRequest): Promise<AuthResponse> {
  return api.post(apiPath('postAuthLogin'), AuthResponse, input);
}

/** POST /api/auth/register → { token, user } */
export function postRegister(input: RegisterRequest): Promise<AuthResponse> {
  return api.post(apiPath('postAuthRegister'), AuthResponse, input);
}

/** GET /api/auth/profile (bearer) → the user object */
export function getProfile(): Promise<UserProfile> {
  return api.get(apiPath('getAuthProfile'), UserProfile);
}

/** POST /api/auth/change-password (bearer) → { success, message, token } */
export function postChangePassword(input: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return api.post(apiPath('postAuthChangePassword'), ChangePasswordResponse, input);
}

/** POST /api/auth/password-reset/confirm → { token, user, message }: the new password, every older session ended */
export function postPasswordResetConfirm(input: PasswordResetConfirmRequest): Promise<PasswordResetConfirmResponse> {
  return api.post(apiPath('postAuthPasswordResetConfirm'), PasswordResetConfirmResponse, input);
}
