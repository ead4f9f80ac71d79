import { AdminSysValsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const sysValsKey = ['admin-sys-vals'] as const;

/** GET /api/admin/sys_vals?page&limit&sortField&sortOrder → { data, pagination: { total } } */
export function getSysVals(query: Record<string, string | number>): Promise<AdminSysValsResponse> {
  return callRoute('getAdminSysVals', { query });
}

export const sysValsQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...sysValsKey, query],
    queryFn: () => getSysVals(query),
    placeholderData: keepPreviousData,
  });

export function useSysVals(query: Record<string, string | number>) {
  return useQuery(sysValsQuery(query));
}
