import { AdminStats } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export type { AdminStats, LastMessage } from '@gpt/contracts';

/** The dashboard refreshes every 10 s while it is open (docs/product.md, Screens and Limits), and not while the tab is hidden. */
export const ADMIN_STATS_REFRESH_MS = 10_000;

/** Query settings of every live figure on the dashboard. */
export const liveRefresh = {
  refetchInterval: ADMIN_STATS_REFRESH_MS,
  refetchIntervalInBackground: false,
  staleTime: 0,
  // A failure shows dashes at once (docs/product.md, Errors); the next refresh asks again.
  retry: false,
} as const;

export function getAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  return callRoute('getAdminStats', { signal });
}

export const adminStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'stats'],
    queryFn: ({ signal }) => getAdminStats(signal),
    ...liveRefresh,
  });

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
