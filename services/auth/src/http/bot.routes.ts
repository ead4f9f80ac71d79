import { routeHandlers } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import { issueLinkToken } from '../domain/account-linking';
import { setTelegramBlocked, upsertBotUser } from '../domain/bot-users';
import { issueSignInLink } from '../domain/telegram-sign-in';

/** The Telegram bot's calls (X-Bot-Key): users by telegram_id (and whether they blocked the bot), link tokens and sign-in links. */
export function botRoutes(deps: AuthDeps) {
  return routeHandlers('auth', {
    postBotUsers: ({ body }) => upsertBotUser(deps, body),
    putBotUsersByTelegramIdBlocked: ({ params, body }) => setTelegramBlocked(deps, params.telegram_id, body.blocked),
    postBotLinkTokens: ({ body }) => issueLinkToken(deps, body),
    postBotSignInLinks: ({ body }) => issueSignInLink(deps, body.telegram_id),
  });
}
