import { type UserPayment, type PaymentStatus } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { ApiError, callRoute } from '@/lib/api-client';

/** The statuses after which nothing more happens to a payment. */
export const FINAL_STATUSES: readonly PaymentStatus[] = ['succeeded', 'canceled', 'failed', 'refunded'];

/** Ask again this often while the provider's notification has not arrived. */
const POLL_MS = 1500;

/** GET /api/billing/payments/{payment_id}: the user's own payment, for the page after the provider. */
export function getPayment(paymentId: string): Promise<UserPayment> {
  return callRoute('getBillingPaymentsById', { params: { id: paymentId } });
}

export const paymentQuery = (paymentId: string) =>
  queryOptions({
    queryKey: ['billing-payment', paymentId],
    queryFn: () => getPayment(paymentId),
    // Settled, or refused (a payment of another account is 404): asking again changes nothing.
    refetchInterval: (query) =>
      (query.state.data && FINAL_STATUSES.includes(query.state.data.status)) || isRefusal(query.state.error)
        ? false
        : POLL_MS,
  });

export const isRefusal = (error: unknown): boolean =>
  error instanceof ApiError && error.status >= 400 && error.status < 500;

export function usePayment(paymentId: string | null) {
  return useQuery({
    ...paymentQuery(paymentId ?? ''),
    enabled: paymentId !== null,
  });
}
