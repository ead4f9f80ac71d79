import { AdminUsersResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { utmStatsKey } from './get-utm-stats';

export const adminUsersKey = ['admin-users'] as const;

/** GET /api/admin/users?page&limit&sortField&sortOrder&email&username&utm_source&tariff_id */
export function getAdminUsers(query: Record<string, string | number>): Promise<AdminUsersResponse> {
  return callRoute('getAdminUsers', { query });
}

export const adminUsersQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminUsersKey, query],
    queryFn: () => getAdminUsers(query),
    placeholderData: keepPreviousData,
  });

export function useAdminUsers(query: Record<string, string | number>) {
  return useQuery(adminUsersQuery(query));
}

/** After a save or a delete the list (and the UTM strip) reloads (docs/product.md, States). */
export function reloadUsersScreen(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminUsersKey }),
    queryClient.invalidateQueries({ queryKey: utmStatsKey }),
  ]);
}
