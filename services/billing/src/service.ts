import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { BillingConfig } from './config';
import { migrations } from './data/migrations';
import type { BillingDatabase } from './data/schema';
import { tariffsRepository } from './data/tariffs.repository';
import type { BillingDeps } from './deps';
import { BASE_TARIFF_NAME, defaultTariffs } from './domain/seed-tariffs';
import { startJobs } from './jobs';
import { billingConsumers } from './messaging/consumers';
import { paymentProviders, type Providers } from './provider';

async function seed(deps: BillingDeps) {
  const tariffs = tariffsRepository(deps.db);
  const created = await tariffs.insertMissing(defaultTariffs);
  await tariffs.markDefaultIfNone(BASE_TARIFF_NAME);
  if (created > 0) deps.logger.info({ created }, 'default tariffs created');
}

/** The payment providers of one running service, made once and shared by its routes and its jobs. */
const providersByService = new WeakMap<BillingDeps, Providers>();
function providersOf(deps: BillingDeps): Providers {
  let providers = providersByService.get(deps);
  if (!providers) {
    providers = paymentProviders(deps);
    providersByService.set(deps, providers);
  }
  return providers;
}

export const billingService: ServiceDefinition<BillingConfig, BillingDatabase> = {
  name: 'billing',
  migrations,
  consumers: billingConsumers,
  buildApp: (deps) => buildApp(deps, providersOf(deps)),
  async onStart(deps) {
    await seed(deps);
    return startJobs(deps, providersOf(deps));
  },
};
