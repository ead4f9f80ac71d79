import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { BillingConfig } from './config';
import { migrations } from './data/migrations';
import type { BillingDatabase } from './data/schema';
import { tariffsRepository } from './data/tariffs.repository';
import type { BillingDeps } from './deps';
import { tariffAnswers } from './domain/public-tariffs';
import { BASE_TARIFF_NAME, defaultTariffs } from './domain/seed-tariffs';
import { startJobs } from './jobs';
import { billingConsumers } from './messaging/consumers';
import { paymentProviders } from './provider';

async function seed(deps: BillingDeps) {
  const tariffs = tariffsRepository(deps.db);
  const created = await tariffs.insertMissing(defaultTariffs);
  await tariffs.markDefaultIfNone(BASE_TARIFF_NAME);
  if (created > 0) deps.logger.info({ created }, 'default tariffs created');
}

export const billingService: ServiceDefinition<BillingConfig, BillingDatabase, BillingDeps> = {
  name: 'billing',
  migrations,
  wire: (base) => ({ ...base, providers: paymentProviders(base), tariffAnswers: tariffAnswers(base) }),
  consumers: billingConsumers,
  buildApp,
  async onStart(deps) {
    await deps.tariffAnswers.changing(() => seed(deps));
    return startJobs(deps);
  },
  close: (deps) => deps.tariffAnswers.close(),
};
