import { createHttpApp, standardReadiness } from '@gpt/kit';
import type { ChatHistoryDeps } from './deps';
import { adminHistoryRouter } from './http/history.routes';
import { mediaRouter } from './http/media.routes';
import { botMessagesRouter } from './http/messages.routes';
import { adminModelsRouter, botModelsRouter } from './http/models.routes';
import { adminModesRouter, botModesRouter } from './http/modes.routes';
import { adminSysValsRouter, botSettingsRouter, welcomeOfferRouter } from './http/sys-vals.routes';

/** The chat-history HTTP app: models, chat modes, settings, the bot's messages, the admin history and attached images. */
export function buildApp(deps: ChatHistoryDeps) {
  return createHttpApp({
    name: 'chat-history',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(adminModelsRouter(deps));
      app.use(adminModesRouter(deps));
      app.use(adminHistoryRouter(deps));
      app.use(adminSysValsRouter(deps));
      app.use(botMessagesRouter(deps));
      app.use(botModelsRouter(deps));
      app.use(botModesRouter(deps));
      app.use(botSettingsRouter(deps));
      app.use(welcomeOfferRouter(deps));
      app.use(mediaRouter(deps));
    },
  });
}
