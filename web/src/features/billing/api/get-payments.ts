import { type UserPaymentsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** Payments on one page of the personal account's history. */
export const PAYMENTS_PAGE_SIZE = 10;

export const paymentsKey = ['billing-payments'] as const;

/** GET /api/billing/payments: the user's own payments, newest first. */
export function getPayments(page: number, signal?: AbortSignal): Promise<UserPaymentsResponse> {
  return callRoute('getBillingPayments', { query: { page, limit: PAYMENTS_PAGE_SIZE }, signal });
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
