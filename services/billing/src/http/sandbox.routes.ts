import { PublicPaymentIdParams, SandboxDecisionRequest, SandboxPayment } from '@gpt/contracts';
import { respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { BillingDeps } from '../deps';
import { handleNotification } from '../domain/settle-payment';
import type { Providers } from '../provider';
import type { SandboxPaymentView } from '../provider/sandbox-provider';
import { billingErrors } from '../domain/errors';

const toResponse = (view: SandboxPaymentView) => ({
  id: view.id,
  status: view.status,
  amount: view.amount,
  description: view.description,
  return_url: view.returnUrl,
});

/**
 * The sandbox provider's confirmation page calls (only without YooKassa keys). The payer's decision
 * is followed by the same notification YooKassa would send, handled by the same code path.
 */
export function sandboxRouter(deps: BillingDeps, providers: Providers): Router {
  const router = Router();
  const sandbox = providers.sandbox;
  if (!sandbox) return router;
  const viewOf = async (id: string) => {
    const view = await sandbox.view(id);
    if (!view) throw billingErrors.paymentNotFound();
    return view;
  };

  router.get('/api/billing/sandbox/payments/:id', async (req, res) => {
    const { id } = validate(PublicPaymentIdParams, req.params);
    respond(res, SandboxPayment, toResponse(await viewOf(id)));
  });
  router.post('/api/billing/sandbox/payments/:id/decision', async (req, res) => {
    const { id } = validate(PublicPaymentIdParams, req.params);
    const { decision } = validate(SandboxDecisionRequest, req.body);
    await viewOf(id);
    if (!(await sandbox.decide(id, decision))) throw billingErrors.paymentAlreadyDecided();
    await handleNotification(deps, providers, {
      type: 'notification',
      event: decision === 'succeeded' ? 'payment.succeeded' : 'payment.canceled',
      object: { id },
    });
    respond(res, SandboxPayment, toResponse(await viewOf(id)));
  });
  return router;
}
