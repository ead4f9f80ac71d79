import { AdminPaymentsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminPaymentsKey = ['admin-payments'] as const;

/** GET /api/admin/payments?page&limit&sortField&sortOrder&userId&username&status → { payments, total } */
export function getAdminPayments(query: Record<string, string | number>): Promise<AdminPaymentsResponse> {
  return callRoute('getAdminPayments', { query });
}

export const adminPaymentsQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminPaymentsKey, query],
    queryFn: () =>
      getAdminPayments(query).catch((err: unknown) => {
        // docs/product.md, Errors: a failure to load the payment list is only logged.
        console.error('Payments failed to load', err);
        throw err;
      }),
    placeholderData: keepPreviousData,
  });

export function useAdminPayments(query: Record<string, string | number>) {
  return useQuery(adminPaymentsQuery(query));
}
