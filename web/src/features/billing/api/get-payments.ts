import { UserPaymentsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** Payments on one page of the personal account's history. */
export const PAYMENTS_PAGE_SIZE = 10;

export const paymentsKey = ['billing-payments'] as const;

/** GET /api/billing/payments: the user's own payments, newest first. */
export function getPayments(page: number, signal?: AbortSignal): Promise<UserPaymentsResponse> {
  const query = new URLSearchParams({
    page: String(page),
    limit: String(PAYMENTS_PAGE_SIZE),
  });
  return api.get(`/api/billing/payments?${query.toString()}`, UserPaymentsResponse, { signal });
}

export const paymentsQuery = (page: number) =>
  queryOptions({
    queryKey: [...paymentsKey, page],
    queryFn: ({ signal }) => getPayments(page, signal),
    placeholderData: keepPreviousData,
  });

export function usePayments(page: number) {
  return useQuery(paymentsQuery(page));
}
