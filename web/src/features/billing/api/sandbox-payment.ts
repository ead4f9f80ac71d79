import { type SandboxPayment, type SandboxDecisionRequest } from '@gpt/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/billing/sandbox/payments/{id}: the sandbox provider's payment (no YooKassa keys). */
export function getSandboxPayment(id: string): Promise<SandboxPayment> {
  return callRoute('getBillingSandboxPaymentsById', { params: { id } });
}

export const sandboxPaymentQuery = (id: string) =>
  queryOptions({
    queryKey: ['sandbox-payment', id],
    queryFn: () => getSandboxPayment(id),
  });

export function useSandboxPayment(id: string) {
  return useQuery(sandboxPaymentQuery(id));
}

/**
 * POST …/decision: pay or cancel, with the key of the payer's link (a signed-in payer needs none);
 * then the payer goes back to the site, as from the real provider.
 */
export function decideSandboxPayment({ id, ...body }: { id: string } & SandboxDecisionRequest) {
  return callRoute('postBillingSandboxPaymentsByIdDecision', { params: { id }, body });
}

export function useDecideSandboxPayment() {
  return useMutation({
    mutationFn: decideSandboxPayment,
    onSuccess: (payment) => window.location.assign(payment.return_url),
  });
}
