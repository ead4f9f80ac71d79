import type { Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { usesSandbox, type BillingConfig } from '../config';
import type { BillingDatabase } from '../data/schema';
import type { PaymentProvider } from './provider';
import { sandboxProvider, type SandboxProvider } from './sandbox-provider';
import { starRefunds, type StarRefunds } from './stars-refunds';
import { yookassaClient } from './yookassa-client';

export interface Providers {
  provider: PaymentProvider;
  /** The sandbox's page operations; null when real YooKassa keys are configured. */
  sandbox: SandboxProvider | null;
  /** Telegram Stars refunds and transactions, through the bot. */
  stars: StarRefunds;
}

/** YooKassa when its keys are set, else the sandbox provider of the embedded default. */
export function paymentProviders(deps: {
  config: BillingConfig;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Providers {
  const { config } = deps;
  const stars = starRefunds({
    botUrl: config.BOT_URL,
    botApiKey: config.BOT_API_KEY,
    timeoutMs: config.YOOKASSA_TIMEOUT_MS,
  });
  if (usesSandbox(config)) {
    const sandbox = sandboxProvider(deps.db, config.SITE_URL, config.JWT_SECRET);
    return { provider: sandbox.provider, sandbox, stars };
  }
  return {
    provider: yookassaClient({
      apiUrl: config.YOOKASSA_API_URL,
      shopId: config.YOOKASSA_SHOP_ID as string,
      secretKey: config.YOOKASSA_SECRET_KEY as string,
      timeoutMs: config.YOOKASSA_TIMEOUT_MS,
      logger: deps.logger,
    }),
    sandbox: null,
    stars,
  };
}
