import type { BillingDeps } from '../deps';
import { usesSandbox } from '../config';
import type { PaymentProvider } from './provider';
import { sandboxProvider, type SandboxProvider } from './sandbox-provider';
import { yookassaClient } from './yookassa-client';

export interface Providers {
  provider: PaymentProvider;
  /** The sandbox's page operations; null when real YooKassa keys are configured. */
  sandbox: SandboxProvider | null;
}

/** YooKassa when its keys are set, else the sandbox provider of the embedded default. */
export function paymentProviders(deps: BillingDeps): Providers {
  const { config } = deps;
  if (usesSandbox(config)) {
    const sandbox = sandboxProvider(deps.db, config.SITE_URL, config.JWT_SECRET);
    return { provider: sandbox.provider, sandbox };
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
  };
}
