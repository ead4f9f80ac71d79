import {
  ChangePasswordRequest,
  LinkAccountRequest,
  LoginRequest,
  PASSWORD_RESET_ACCEPTED,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  RegisterRequest,
} from '@gpt/contracts';
import { requireAuth, validate } from '@gpt/kit';
import { Router } from 'express';
import type { AuthDeps } from '../deps';
import { linkAccounts } from '../domain/account-linking';
import { confirmPasswordReset, requestPasswordReset } from '../domain/password-reset';
import { changePassword, getProfile, login, register } from '../domain/sessions';

/** The signed-in user's id from the verified token. */
export const actingUserId = (claims: { sub: string } | undefined) => Number(claims?.sub);

/** Sign-up, login, profile, password change and recovery, Telegram linking (`/api/auth/*`). */
export function sessionRouter(deps: AuthDeps): Router {
  const router = Router();
  const signedIn = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv });

  router.post('/api/auth/register', async (req, res) => {
    res.status(201).json(await register(deps, validate(RegisterRequest, req.body ?? {})));
  });

  router.post('/api/auth/login', async (req, res) => {
    res.json(await login(deps, validate(LoginRequest, req.body ?? {})));
  });

  // Answered before any lookup, so neither the body nor the timing tells whether the e-mail exists.
  router.post('/api/auth/password-reset', (req, res) => {
    const { email } = validate(PasswordResetRequest, req.body ?? {});
    res.status(202).json({ success: true, message: PASSWORD_RESET_ACCEPTED });
    requestPasswordReset(deps, email).catch((err: unknown) =>
      deps.logger.error({ err }, 'password reset link not issued'),
    );
  });

  router.post('/api/auth/password-reset/confirm', async (req, res) => {
    res.json(await confirmPasswordReset(deps, validate(PasswordResetConfirmRequest, req.body ?? {})));
  });

  router.get('/api/auth/profile', signedIn, async (_req, res) => {
    res.type('application/json').send((await getProfile(deps, actingUserId(res.locals.claims))).body);
  });

  router.post('/api/auth/change-password', signedIn, async (req, res) => {
    const input = validate(ChangePasswordRequest, req.body ?? {});
    res.json(await changePassword(deps, actingUserId(res.locals.claims), input));
  });

  router.post('/api/auth/link', signedIn, async (req, res) => {
    const { token } = validate(LinkAccountRequest, req.body ?? {});
    res.json(await linkAccounts(deps, actingUserId(res.locals.claims), token));
  });

  return router;
}
