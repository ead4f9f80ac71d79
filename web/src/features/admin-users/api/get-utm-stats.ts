import { type UtmStat, UtmStatsResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const utmStatsKey = ['admin-utm-stats'] as const;

/** GET /api/admin/utm/stats → { stats: [{ utm_source, count }] } */
export async function getUtmStats(): Promise<UtmStat[]> {
  const { stats } = await api.get(apiPath('getAdminUtmStats'), UtmStatsResponse);
  return stats;
}

export const utmStatsQuery = () =>
  queryOptions({
    queryKey: utmStatsKey,
    queryFn: () =>
      // docs/product.md, Errors: a failure to load the UTM statistics is only logged.
      getUtmStats().catch((err: unknown) => {
        console.error('UTM statistics failed to load', err);
        return [];
      }),
  });

export function useUtmStats() {
  return useQuery(utmStatsQuery());
}
