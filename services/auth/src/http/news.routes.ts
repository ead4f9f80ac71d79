import { routeHandlers } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import { broadcastRecipients, newsOf, setNews } from '../domain/news';
import { actingUserId } from './session.routes';

/** The bot's broadcasts as auth serves them: a segment's recipients (the bot) and each user's «Новости и акции». */
export function newsRoutes(deps: AuthDeps) {
  return routeHandlers('auth', {
    postBotBroadcastRecipients: ({ body }) => broadcastRecipients(deps, body),
    getBotUsersByTelegramIdNews: ({ params }) => newsOf(deps, { telegramId: params.telegram_id }),
    putBotUsersByTelegramIdNews: ({ params, body }) => setNews(deps, { telegramId: params.telegram_id }, body.news),
    getAuthProfileNews: ({ claims }) => newsOf(deps, { id: actingUserId(claims) }),
    putAuthProfileNews: ({ claims, body }) => setNews(deps, { id: actingUserId(claims) }, body.news),
  });
}
