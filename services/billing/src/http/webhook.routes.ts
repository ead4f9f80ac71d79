import { routeHandlers } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { handleNotification } from '../domain/settle-payment';
import type { Providers } from '../provider';
import { notificationSourceGuard } from './notification-source';

/**
 * YooKassa's notifications. Handled and duplicate ones are answered 200 (the provider stops
 * resending); a forged one is refused with 400 and changes nothing; 503 asks it to try later.
 */
export function webhookRoutes(deps: BillingDeps, providers: Providers) {
  const guard = notificationSourceGuard({
    allowed: deps.config.YOOKASSA_TRUSTED_IPS,
    trustedProxies: deps.config.BILLING_TRUST_PROXY,
  });
  return routeHandlers('billing', {
    postBillingWebhooksYookassa: {
      use: [guard],
      handle: async ({ body, req }) => {
        const outcome = await handleNotification(deps, providers, body);
        req.log.info({ providerPaymentId: body.object.id, event: body.event, outcome }, 'notification');
        return { success: true };
      },
    },
  });
}
