import {
  BotLinkTokenRequest,
  BotLinkTokenResponse,
  BotTelegramBlockedRequest,
  BotTelegramBlockedResponse,
  BotUpsertUserRequest,
  BotUser,
  TelegramIdParams,
} from '@gpt/contracts';
import { requireBotKey, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { AuthDeps } from '../deps';
import { issueLinkToken } from '../domain/account-linking';
import { setTelegramBlocked, upsertBotUser } from '../domain/bot-users';

/** The Telegram bot's calls (X-Bot-Key): users by telegram_id (and whether they blocked the bot) and link tokens. */
export function botRouter(deps: AuthDeps): Router {
  const router = Router();
  router.use(['/api/bot/users', '/api/bot/link-tokens'], requireBotKey(deps.config.BOT_API_KEY));

  router.post('/api/bot/users', async (req, res) => {
    respond(res, BotUser, await upsertBotUser(deps, validate(BotUpsertUserRequest, req.body ?? {})));
  });

  router.put('/api/bot/users/:telegram_id/blocked', async (req, res) => {
    const { telegram_id } = validate(TelegramIdParams, req.params);
    const { blocked } = validate(BotTelegramBlockedRequest, req.body ?? {});
    respond(res, BotTelegramBlockedResponse, await setTelegramBlocked(deps, telegram_id, blocked));
  });

  router.post('/api/bot/link-tokens', async (req, res) => {
    const { telegram_id } = validate(BotLinkTokenRequest, req.body ?? {});
    respond(res, BotLinkTokenResponse, await issueLinkToken(deps, telegram_id), 201);
  });

  return router;
}
