import { Payment } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminPaymentsKey } from './get-admin-payments';

/** GET /api/admin/payments/{id} → one payment with the provider's id and metadata. */
export function getAdminPayment(id: number): Promise<Payment> {
  return callRoute('getAdminPaymentsById', { params: { id } });
}

export const adminPaymentQuery = (id: number) =>
  queryOptions({
    queryKey: [...adminPaymentsKey, 'detail', id],
    queryFn: () => getAdminPayment(id),
  });

export function useAdminPayment(id: number | null) {
  return useQuery({ ...adminPaymentQuery(id ?? 0), enabled: id !== null });
}
