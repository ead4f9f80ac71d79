import { contractRouter, createHttpApp, internalAuditRouter, standardReadiness } from '@gpt/kit';
import type { ChatHistoryDeps } from './deps';
import { historyRoutes } from './http/history.routes';
import { mediaRoutes } from './http/media.routes';
import { messagesRoutes } from './http/messages.routes';
import { modelsRoutes } from './http/models.routes';
import { modesRoutes } from './http/modes.routes';
import { sysValsRoutes } from './http/sys-vals.routes';

/** The chat-history HTTP app: models, chat modes, settings, the bot's messages, the admin history and attached images. */
export function buildApp(deps: ChatHistoryDeps) {
  return createHttpApp({
    name: 'chat-history',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(
        contractRouter(
          'chat-history',
          { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv, botApiKey: deps.config.BOT_API_KEY },
          {
            ...modelsRoutes(deps),
            ...modesRoutes(deps),
            ...historyRoutes(deps),
            ...sysValsRoutes(deps),
            ...messagesRoutes(deps),
            ...mediaRoutes(deps),
          },
        ),
      );
      app.use(internalAuditRouter({ db: deps.db, kv: deps.kv, jwtSecret: deps.config.JWT_SECRET }));
    },
  });
}
