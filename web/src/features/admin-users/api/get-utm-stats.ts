import { type UtmStat } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const utmStatsKey = ['admin-utm-stats'] as const;

/** GET /api/admin/utm/stats → { stats: [{ utm_source, count }] } */
export async function getUtmStats(): Promise<UtmStat[]> {
  const { stats } = await callRoute('getAdminUtmStats');
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
