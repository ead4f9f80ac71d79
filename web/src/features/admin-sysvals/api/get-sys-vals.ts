import type { SysVal } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const sysValsKey = ['admin-sys-vals'] as const;

/** The most a page of `GET /api/admin/sys_vals` holds. */
const PAGE_LIMIT = 100;

/** Every setting: `GET /api/admin/sys_vals` page after page, by key, until the total is read. */
export async function getAllSysVals(): Promise<SysVal[]> {
  const all: SysVal[] = [];
  for (let page = 1; ; page += 1) {
    const { data, pagination } = await callRoute('getAdminSysVals', {
      query: { page, limit: PAGE_LIMIT, sortField: 'key', sortOrder: 1 },
    });
    all.push(...data);
    if (data.length === 0 || all.length >= pagination.total) return all;
  }
}

export const sysValsQuery = () => queryOptions({ queryKey: sysValsKey, queryFn: getAllSysVals });

export function useSysVals() {
  return useQuery(sysValsQuery());
}
