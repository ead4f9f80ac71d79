import {
  AuthResponse,
  ChangePasswordResponse,
  PasswordResetConfirmResponse,
  UserProfile,
  type ChangePasswordRequest,
  type LoginRequest,
  type PasswordResetConfirmRequest,
  type RegisterRequest,
  type TelegramWidgetLogin,
} from '@gpt/contracts';

import { callRoute } from '../api-client';

/** POST /api/auth/login → { token, user } */
export function postLogin(input: LoginRequest): Promise<AuthResponse> {
  return callRoute('postAuthLogin', { body: input });
}

/** POST /api/auth/register → { token, user } */
export function postRegister(input: RegisterRequest): Promise<AuthResponse> {
  return callRoute('postAuthRegister', { body: input });
}

/** GET /api/auth/profile (bearer) → the user object */
export function getProfile(): Promise<UserProfile> {
  return callRoute('getAuthProfile');
}

/** POST /api/auth/change-password (bearer) → { success, message, token } */
export function postChangePassword(input: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return callRoute('postAuthChangePassword', { body: input });
}

/** POST /api/auth/password-reset/confirm → { token, user, message }: the new password, every older session ended */
export function postPasswordResetConfirm(input: PasswordResetConfirmRequest): Promise<PasswordResetConfirmResponse> {
  return callRoute('postAuthPasswordResetConfirm', { body: input });
}

/** POST /api/auth/telegram/sign-in-link → { token, user }: the bot's single-use link (`/telegram-sign-in/<token>`) */
export function postTelegramSignInLink(token: string): Promise<AuthResponse> {
  return callRoute('postAuthTelegramSignInLink', { body: { token } });
}

/** POST /api/auth/telegram/widget → { token, user }: what the Telegram Login Widget handed the page */
export function postTelegramWidget(login: TelegramWidgetLogin): Promise<AuthResponse> {
  return callRoute('postAuthTelegramWidget', { body: login });
}
