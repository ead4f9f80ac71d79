import { AdminModelsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminModelsKey = ['admin-models'] as const;

/** GET /api/admin/models?page&limit&sortField&sortOrder → { models, total } */
export function getAdminModels(query: Record<string, string | number>): Promise<AdminModelsResponse> {
  return callRoute('getAdminModels', { query });
}

export const adminModelsQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminModelsKey, query],
    queryFn: () => getAdminModels(query),
    placeholderData: keepPreviousData,
  });

export function useAdminModels(query: Record<string, string | number>) {
  return useQuery(adminModelsQuery(query));
}
