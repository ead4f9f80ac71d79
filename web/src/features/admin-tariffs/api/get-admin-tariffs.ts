import { AdminTariffsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminTariffsKey = ['admin-tariffs'] as const;

/** GET /api/admin/tariffs?page&limit&sortField&sortOrder → { data, total } */
export function getAdminTariffs(query: Record<string, string | number>): Promise<AdminTariffsResponse> {
  return callRoute('getAdminTariffs', { query });
}

export const adminTariffsQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminTariffsKey, query],
    queryFn: () => getAdminTariffs(query),
    placeholderData: keepPreviousData,
  });

export function useAdminTariffs(query: Record<string, string | number>) {
  return useQuery(adminTariffsQuery(query));
}
