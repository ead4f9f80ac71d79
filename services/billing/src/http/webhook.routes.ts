import { SuccessResponse, YookassaNotification } from '@gpt/contracts';
import { respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { BillingDeps } from '../deps';
import { handleNotification } from '../domain/settle-payment';
import type { Providers } from '../provider';
import { notificationSourceGuard } from './notification-source';

/**
 * YooKassa's notifications. Handled and duplicate ones are answered 200 (the provider stops
 * resending); a forged one is refused with 400 and changes nothing; 503 asks it to try later.
 */
export function webhookRouter(deps: BillingDeps, providers: Providers): Router {
  const guard = notificationSourceGuard({
    allowed: deps.config.YOOKASSA_TRUSTED_IPS,
    trustedProxies: deps.config.BILLING_TRUST_PROXY,
  });
  return Router().post('/api/billing/webhooks/yookassa', guard, async (req, res) => {
    const notification = validate(YookassaNotification, req.body);
    const outcome = await handleNotification(deps, providers, notification);
    req.log.info({ providerPaymentId: notification.object.id, event: notification.event, outcome }, 'notification');
    respond(res, SuccessResponse, { success: true });
  });
}
