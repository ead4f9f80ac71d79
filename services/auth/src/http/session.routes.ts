import { PASSWORD_RESET_ACCEPTED } from '@gpt/contracts';
import { answered, attemptLimiter, clientAddress, routeHandlers, sendJsonBytes } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import { linkAccounts, previewLink, unlinkTelegram } from '../domain/account-linking';
import { confirmEmail, emailConfirmationResender } from '../domain/email-confirmation';
import {
  confirmPasswordReset,
  passwordResetChannel,
  requestPasswordReset,
  setPasswordResetChannel,
} from '../domain/password-reset';
import { changePassword, getProfile, login, register } from '../domain/sessions';
import { signInWithLink, signInWithWidget, telegramWidgetInfo } from '../domain/telegram-sign-in';
import { toProfile } from '../domain/user-views';

/** The signed-in user's id from the verified token. */
export const actingUserId = (claims: { sub: string } | undefined) => Number(claims?.sub);

/** Sign-up, e-mail confirmation, login, profile, password change and recovery, Telegram linking and sign-in from Telegram (`/api/auth/*`). */
export function sessionRoutes(deps: AuthDeps) {
  const resetAttempts = attemptLimiter(deps.kv, {
    name: 'password-reset-confirm-token',
    points: deps.config.PASSWORD_RESET_CONFIRM_PER_TOKEN_POINTS,
    windowSec: deps.config.PASSWORD_RESET_CONFIRM_PER_TOKEN_WINDOW_SEC,
  });
  const resendConfirmation = emailConfirmationResender(deps);

  return routeHandlers('auth', {
    postAuthRegister: ({ body, req }) => register(deps, body, clientAddress(req)),
    postAuthEmailConfirmation: ({ claims }) => resendConfirmation(actingUserId(claims)),
    postAuthEmailConfirmationConfirm: ({ body }) => confirmEmail(deps, body.token),
    postAuthLogin: ({ body, req }) =>
      login(deps, body, { ip: clientAddress(req) || null, userAgent: req.get('user-agent') ?? null }),
    // The link is sent after the answer, so neither the body nor the timing tells whether the e-mail exists.
    postAuthPasswordReset: ({ body }) => {
      setImmediate(() =>
        requestPasswordReset(deps, body.email).catch((err: unknown) =>
          deps.logger.error({ err }, 'password reset link not issued'),
        ),
      );
      return { success: true, message: PASSWORD_RESET_ACCEPTED };
    },
    postAuthPasswordResetConfirm: ({ body }) => confirmPasswordReset(deps, resetAttempts, body),
    // The profile is kept serialized (answer-cache): its JSON text goes out as is.
    getAuthProfile: async ({ claims, req, res }) => {
      sendJsonBytes(req, res, (await getProfile(deps, actingUserId(claims))).body);
      return answered;
    },
    getAuthProfilePasswordReset: ({ claims }) => passwordResetChannel(deps, actingUserId(claims)),
    putAuthProfilePasswordReset: ({ claims, body }) => setPasswordResetChannel(deps, actingUserId(claims), body),
    postAuthChangePassword: ({ body, claims }) => changePassword(deps, actingUserId(claims), body),
    postAuthLink: ({ body, claims }) => linkAccounts(deps, actingUserId(claims), body.token),
    postAuthLinkPreview: ({ body, claims }) => previewLink(deps, actingUserId(claims), body.token),
    deleteAuthLink: async ({ claims }) => ({
      success: true,
      message: 'Telegram отвязан',
      user: toProfile(await unlinkTelegram(deps, actingUserId(claims))),
    }),
    postAuthTelegramSignInLink: ({ body }) => signInWithLink(deps, body.token),
    getAuthTelegramWidget: () => telegramWidgetInfo(deps),
    postAuthTelegramWidget: ({ body }) => signInWithWidget(deps, body),
  });
}
