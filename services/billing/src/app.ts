import { contractRouter, createHttpApp, internalAuditRouter, standardReadiness } from '@gpt/kit';
import type { BillingDeps } from './deps';
import { growthRoutes } from './http/growth.routes';
import { holdsRoutes } from './http/holds.routes';
import { internalRouter } from './http/internal.routes';
import { paymentsRoutes } from './http/payments.routes';
import { sandboxRoutes } from './http/sandbox.routes';
import { subscriptionsRoutes } from './http/subscriptions.routes';
import { tariffsRoutes } from './http/tariffs.routes';
import { webhookRoutes } from './http/webhook.routes';

export function buildApp(deps: BillingDeps) {
  const { providers } = deps;
  return createHttpApp({
    name: 'billing',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(
        contractRouter(
          'billing',
          { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv, botApiKey: deps.config.BOT_API_KEY },
          {
            ...tariffsRoutes(deps),
            ...paymentsRoutes(deps, providers),
            ...holdsRoutes(deps),
            ...growthRoutes(deps),
            ...webhookRoutes(deps, providers),
            ...sandboxRoutes(deps, providers),
            ...subscriptionsRoutes(deps, providers),
          },
        ),
      );
      app.use(internalRouter(deps));
      app.use(internalAuditRouter({ db: deps.db, kv: deps.kv, jwtSecret: deps.config.JWT_SECRET }));
    },
  });
}
