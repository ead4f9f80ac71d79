import { AdminArticlesResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminArticlesKey = ['admin-articles'] as const;

/** GET /api/admin/articles?page&limit&sortField&sortOrder → { articles, total } */
export function getAdminArticles(query: Record<string, string | number>): Promise<AdminArticlesResponse> {
  return callRoute('getAdminArticles', { query });
}

export const adminArticlesQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminArticlesKey, query],
    queryFn: () => getAdminArticles(query),
    placeholderData: keepPreviousData,
  });

export function useAdminArticles(query: Record<string, string | number>) {
  return useQuery(adminArticlesQuery(query));
}
