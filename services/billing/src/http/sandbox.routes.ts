import { accessTokenVerifier, authenticateRequest, notServed, routeHandlers } from '@gpt/kit';
import type { Request } from 'express';
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
export function sandboxRoutes(deps: BillingDeps, providers: Providers) {
  const sandbox = providers.sandbox;
  if (!sandbox) {
    return routeHandlers('billing', {
      getBillingSandboxPaymentsById: notServed,
      postBillingSandboxPaymentsByIdDecision: notServed,
    });
  }
  const verify = accessTokenVerifier(deps.config.JWT_SECRET);
  /** A signed-in payer may decide without the link's key (an invalid token is no proof, not an error). */
  const signedInAs = async (req: Request): Promise<string | null> => {
    if (!req.headers.authorization) return null;
    const claims = await authenticateRequest(req.headers.authorization, { verify, kv: deps.kv }).catch(() => null);
    return claims?.sub ?? null;
  };
  const viewOf = async (id: string) => {
    const view = await sandbox.view(id);
    if (!view) throw billingErrors.paymentNotFound();
    return view;
  };

  return routeHandlers('billing', {
    getBillingSandboxPaymentsById: async ({ params }) => toResponse(await viewOf(params.id)),
    postBillingSandboxPaymentsByIdDecision: async ({ params: { id }, body: { decision, key }, req }) => {
      const view = await viewOf(id);
      const payer = sandbox.keyMatches(id, key) || (view.userId !== null && (await signedInAs(req)) === view.userId);
      if (!payer) throw billingErrors.sandboxPaymentForbidden();
      if (!(await sandbox.decide(id, decision))) throw billingErrors.paymentAlreadyDecided();
      await handleNotification(deps, providers, {
        type: 'notification',
        event: decision === 'succeeded' ? 'payment.succeeded' : 'payment.canceled',
        object: { id },
      });
      return toResponse(await viewOf(id));
    },
  });
}
