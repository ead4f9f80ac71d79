import { AdminModesResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const adminModesKey = ['admin-modes'] as const;

/** GET /api/admin/modes?page&limit&sortField&sortOrder&q → { modes, total } */
export function getAdminModes(query: Record<string, string | number>): Promise<AdminModesResponse> {
  return api.get(apiPath('getAdminModes'), AdminModesResponse, { query });
}

export const adminModesQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminModesKey, query],
    queryFn: () => getAdminModes(query),
    placeholderData: keepPreviousData,
  });

export function useAdminModes(query: Record<string, string | number>) {
  return useQuery(adminModesQuery(query));
}
