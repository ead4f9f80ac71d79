import { createHttpApp, standardReadiness, type ServiceDeps } from '@gpt/kit';
import type { BillingConfig } from './config';
import type { BillingDatabase } from './data/schema';
import { botHoldsRouter } from './http/holds.routes';
import { internalRouter } from './http/internal.routes';
import { adminPaymentsRouter, botPaymentsRouter, userPaymentsRouter } from './http/payments.routes';
import { sandboxRouter } from './http/sandbox.routes';
import { adminTariffsRouter, publicTariffsRouter } from './http/tariffs.routes';
import { webhookRouter } from './http/webhook.routes';
import { paymentProviders } from './provider';

export type BillingDeps = ServiceDeps<BillingConfig, BillingDatabase>;

export function buildApp(deps: BillingDeps) {
  const providers = paymentProviders(deps);
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
      app.use(adminPaymentsRouter(deps));
      app.use(webhookRouter(deps, providers));
      app.use(sandboxRouter(deps, providers));
      app.use(internalRouter(deps));
    },
  });
}
