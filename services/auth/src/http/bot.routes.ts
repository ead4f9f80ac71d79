import { BotLinkTokenRequest, BotLinkTokenResponse, BotUpsertUserRequest, BotUser } from '@gpt/contracts';
import { requireBotKey, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { AuthDeps } from '../deps';
import { issueLinkToken } from '../domain/account-linking';
import { upsertBotUser } from '../domain/bot-users';

/** The Telegram bot's calls (X-Bot-Key): users by telegram_id and link tokens. */
export function botRouter(deps: AuthDeps): Router {
  const router = Router();
  router.use(['/api/bot/users', '/api/bot/link-tokens'], requireBotKey(deps.config.BOT_API_KEY));

  router.post('/api/bot/users', async (req, res) => {
    respond(res, BotUser, await upsertBotUser(deps, validate(BotUpsertUserRequest, req.body ?? {})));
  });

  router.post('/api/bot/link-tokens', async (req, res) => {
    const { telegram_id } = validate(BotLinkTokenRequest, req.body ?? {});
    respond(res, BotLinkTokenResponse, await issueLinkToken(deps, telegram_id), 201);
  });

  return router;
}
