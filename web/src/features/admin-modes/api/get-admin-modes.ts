import { AdminModesResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminModesKey = ['admin-modes'] as const;

/** GET /api/admin/modes?page&limit&sortField&sortOrder&q → { modes, total } */
export function getAdminModes(query: Record<string, string | number>): Promise<AdminModesResponse> {
  return callRoute('getAdminModes', { query });
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
