import { createHttpApp, standardReadiness } from '@gpt/kit';
import type { BillingDeps } from './deps';
import { adminGrowthRouter, botGrowthRouter, userGrowthRouter } from './http/growth.routes';
import { botHoldsRouter } from './http/holds.routes';
import { internalRouter } from './http/internal.routes';
import { adminPaymentsRouter, botPaymentsRouter, userPaymentsRouter } from './http/payments.routes';
import { sandboxRouter } from './http/sandbox.routes';
import { adminTariffsRouter, publicTariffsRouter } from './http/tariffs.routes';
import { webhookRouter } from './http/webhook.routes';
import type { Providers } from './provider';

export function buildApp(deps: BillingDeps, providers: Providers) {
  return createHttpApp({
    name: 'billing',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(publicTariffsRouter(deps));
      app.use(adminTariffsRouter(deps));
      app.use(userPaymentsRouter(deps, providers));
      app.use(botPaymentsRouter(deps, providers));
      app.use(botHoldsRouter(deps));
      app.use(adminPaymentsRouter(deps, providers));
      app.use(userGrowthRouter(deps));
      app.use(botGrowthRouter(deps));
      app.use(adminGrowthRouter(deps));
      app.use(webhookRouter(deps, providers));
      app.use(sandboxRouter(deps, providers));
      app.use(internalRouter(deps));
    },
  });
}
