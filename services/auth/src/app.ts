import { contractRouter, createHttpApp, internalAuditRouter, standardReadiness } from '@gpt/kit';
import type { AuthDeps } from './deps';
import { adminUsersRoutes } from './http/admin-users.routes';
import { botRoutes } from './http/bot.routes';
import { internalRouter } from './http/internal.routes';
import { newsRoutes } from './http/news.routes';
import { sessionRoutes } from './http/session.routes';

/** The auth HTTP app: sessions and linking, the bot's calls, the admin users screen. */
export function buildApp(deps: AuthDeps) {
  return createHttpApp({
    name: 'auth',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(
        contractRouter(
          'auth',
          { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv, botApiKey: deps.config.BOT_API_KEY },
          { ...sessionRoutes(deps), ...botRoutes(deps), ...adminUsersRoutes(deps), ...newsRoutes(deps) },
        ),
      );
      app.use(internalRouter(deps));
      app.use(internalAuditRouter({ db: deps.db, kv: deps.kv, jwtSecret: deps.config.JWT_SECRET }));
    },
  });
}
