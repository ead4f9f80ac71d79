import { AdminPromoCodesResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminPromoCodesKey = ['admin-promo-codes'] as const;

/** GET /api/admin/promo-codes?page&limit&sortField&sortOrder&search → { data, total } */
export function getAdminPromoCodes(query: Record<string, string | number>): Promise<AdminPromoCodesResponse> {
  return callRoute('getAdminPromoCodes', { query });
}

export const adminPromoCodesQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminPromoCodesKey, query],
    queryFn: () => getAdminPromoCodes(query),
    placeholderData: keepPreviousData,
  });

export function useAdminPromoCodes(query: Record<string, string | number>) {
  return useQuery(adminPromoCodesQuery(query));
}

/** GET /api/admin/promo-codes/{id}: the code and who used it (the view dialog). */
export function usePromoCodeDetail(id: number | null) {
  return useQuery({
    queryKey: [...adminPromoCodesKey, 'detail', id],
    queryFn: () => callRoute('getAdminPromoCodesById', { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}
