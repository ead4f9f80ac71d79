import { AdminHistoryResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const historyKey = ['admin-history'] as const;

/** GET /api/admin/history?page&pageSize&sortField&sortOrder&userId&username&message → { history, total } */
export function getHistory(query: Record<string, string | number>): Promise<AdminHistoryResponse> {
  return callRoute('getAdminHistory', { query });
}

export const historyQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...historyKey, 'list', query],
    queryFn: () => getHistory(query),
    placeholderData: keepPreviousData,
  });

export function useHistory(query: Record<string, string | number>) {
  return useQuery(historyQuery(query));
}
