import { RefundPaymentResponse, type Payment } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminPaymentsKey } from './get-admin-payments';

/** POST /api/admin/payments/{id}/refund → the refunded payment. */
export async function refundPayment(id: number): Promise<Payment> {
  return (await api.post(apiPath('postAdminPaymentsByIdRefund', { id }), RefundPaymentResponse)).payment;
}

/** After a refund the list and the payment's detail reload. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPaymentsKey }),
  });
}
