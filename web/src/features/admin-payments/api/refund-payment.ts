import { type Payment, type RefundPaymentRequest } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminPaymentsKey } from './get-admin-payments';

/** POST /api/admin/payments/{id}/refund with the reason → the refunded payment, with the key of the opened confirmation. */
export async function refundPayment(
  { id, ...body }: RefundPaymentRequest & { id: number },
  key: string,
): Promise<Payment> {
  return (await callRoute('postAdminPaymentsByIdRefund', { params: { id }, body, headers: actionKeyHeaders(key) }))
    .payment;
}

/** After a refund the list and the payment's detail reload. */
/** `key`: the Idempotency-Key of the opened confirmation. */
export function useRefundPayment(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (refund: RefundPaymentRequest & { id: number }) => refundPayment(refund, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPaymentsKey }),
  });
}
