import {
  AuthResponse,
  ChangePasswordRequest,
  ChangePasswordResponse,
  EmailConfirmationConfirmRequest,
  EmailConfirmationResponse,
  LinkAccountRequest,
  LinkAccountResponse,
  LoginRequest,
  PASSWORD_RESET_ACCEPTED,
  PasswordResetAccepted,
  PasswordResetConfirmRequest,
  PasswordResetConfirmResponse,
  PasswordResetRequest,
  RegisterRequest,
} from '@gpt/contracts';
import { attemptLimiter, clientAddress, requireAuth, respond, sendJsonBytes, validate } from '@gpt/kit';
import { Router } from 'express';
import type { AuthDeps } from '../deps';
import { linkAccounts } from '../domain/account-linking';
import { confirmEmail, emailConfirmationResender } from '../domain/email-confirmation';
import { confirmPasswordReset, requestPasswordReset } from '../domain/password-reset';
import { changePassword, getProfile, login, register } from '../domain/sessions';

/** The signed-in user's id from the verified token. */
export const actingUserId = (claims: { sub: string } | undefined) => Number(claims?.sub);

/** Sign-up, e-mail confirmation, login, profile, password change and recovery, Telegram linking (`/api/auth/*`). */
export function sessionRouter(deps: AuthDeps): Router {
  const router = Router();
  const signedIn = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv });
  const resetAttempts = attemptLimiter(deps.kv, {
    name: 'password-reset-confirm-token',
    points: deps.config.PASSWORD_RESET_CONFIRM_PER_TOKEN_POINTS,
    windowSec: deps.config.PASSWORD_RESET_CONFIRM_PER_TOKEN_WINDOW_SEC,
  });
  const resendConfirmation = emailConfirmationResender(deps);

  router.post('/api/auth/register', async (req, res) => {
    respond(
      res,
      AuthResponse,
      await register(deps, validate(RegisterRequest, req.body ?? {}), clientAddress(req)),
      201,
    );
  });

  router.post('/api/auth/email-confirmation', signedIn, async (_req, res) => {
    respond(res, EmailConfirmationResponse, await resendConfirmation(actingUserId(res.locals.claims)), 202);
  });

  router.post('/api/auth/email-confirmation/confirm', async (req, res) => {
    const { token } = validate(EmailConfirmationConfirmRequest, req.body ?? {});
    respond(res, EmailConfirmationResponse, await confirmEmail(deps, token));
  });

  router.post('/api/auth/login', async (req, res) => {
    respond(res, AuthResponse, await login(deps, validate(LoginRequest, req.body ?? {})));
  });

  // Answered before any lookup, so neither the body nor the timing tells whether the e-mail exists.
  router.post('/api/auth/password-reset', (req, res) => {
    const { email } = validate(PasswordResetRequest, req.body ?? {});
    respond(res, PasswordResetAccepted, { success: true, message: PASSWORD_RESET_ACCEPTED }, 202);
    requestPasswordReset(deps, email).catch((err: unknown) =>
      deps.logger.error({ err }, 'password reset link not issued'),
    );
  });

  router.post('/api/auth/password-reset/confirm', async (req, res) => {
    const input = validate(PasswordResetConfirmRequest, req.body ?? {});
    respond(res, PasswordResetConfirmResponse, await confirmPasswordReset(deps, resetAttempts, input));
  });

  router.get('/api/auth/profile', signedIn, async (req, res) => {
    sendJsonBytes(req, res, (await getProfile(deps, actingUserId(res.locals.claims))).body);
  });

  router.post('/api/auth/change-password', signedIn, async (req, res) => {
    const input = validate(ChangePasswordRequest, req.body ?? {});
    respond(res, ChangePasswordResponse, await changePassword(deps, actingUserId(res.locals.claims), input));
  });

  router.post('/api/auth/link', signedIn, async (req, res) => {
    const { token } = validate(LinkAccountRequest, req.body ?? {});
    respond(res, LinkAccountResponse, await linkAccounts(deps, actingUserId(res.locals.claims), token));
  });

  return router;
}
