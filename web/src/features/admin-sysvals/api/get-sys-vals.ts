import { AdminSysValsResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const sysValsKey = ['admin-sys-vals'] as const;

/** GET /api/admin/sys_vals?page&limit&sortField&sortOrder → { data, pagination: { total } } */
export function getSysVals(query: Record<string, string | number>): Promise<AdminSysValsResponse> {
  return api.get(apiPath('getAdminSysVals'), AdminSysValsResponse, { query });
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
