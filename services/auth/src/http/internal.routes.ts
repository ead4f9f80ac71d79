import { TelegramIdParams, UserIdParams, UserUpdatedData } from '@gpt/contracts';
import { forbidden, requireAuth, requireBotKey, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { AuthDeps } from '../deps';
import { currentSnapshot } from '../domain/user-snapshot';

/**
 * Calls from other services, never routed by the gateway: one user's snapshot for a service whose copy
 * has not arrived by event yet (a payment or a hold right after sign-up), read with the caller's own
 * credentials — the user's token (or an admin's), or the bot key for a Telegram user.
 */
export function internalRouter(deps: AuthDeps): Router {
  const user = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv });
  return Router()
    .get('/internal/users/:id', user, async (req, res) => {
      const { id } = validate(UserIdParams, req.params);
      const claims = res.locals.claims as { sub: string; role: string };
      if (claims.role !== 'admin' && claims.sub !== String(id)) throw forbidden();
      respond(res, UserUpdatedData, await currentSnapshot(deps, { id }));
    })
    .get('/internal/telegram-users/:telegram_id', requireBotKey(deps.config.BOT_API_KEY), async (req, res) => {
      const { telegram_id } = validate(TelegramIdParams, req.params);
      respond(res, UserUpdatedData, await currentSnapshot(deps, { telegramId: telegram_id }));
    });
}
