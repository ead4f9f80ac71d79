import { RefundPaymentResponse, type Payment } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { api } from '@/lib/api-client';

import { adminPaymentsKey } from './get-admin-payments';

/** POST /api/admin/payments/{id}/refund → the refunded payment, with the key of the opened confirmation. */
export async function refundPayment({ id, key }: { id: number; key: string }): Promise<Payment> {
  const path = apiPath('postAdminPaymentsByIdRefund', { id });
  return (await api.post(path, RefundPaymentResponse, undefined, { headers: actionKeyHeaders(key) })).payment;
}

/** After a refund the list and the payment's detail reload. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPaymentsKey }),
  });
}
