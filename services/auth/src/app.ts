import { createHttpApp, standardReadiness } from '@gpt/kit';
import type { AuthDeps } from './deps';
import { adminUsersRouter } from './http/admin-users.routes';
import { botRouter } from './http/bot.routes';
import { internalRouter } from './http/internal.routes';
import { sessionRouter } from './http/session.routes';

/** The auth HTTP app: sessions and linking, the bot's calls, the admin users screen. */
export function buildApp(deps: AuthDeps) {
  return createHttpApp({
    name: 'auth',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(sessionRouter(deps));
      app.use(botRouter(deps));
      app.use(adminUsersRouter(deps));
      app.use(internalRouter(deps));
    },
  });
}
