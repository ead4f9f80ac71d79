import { StatsSeriesResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { liveRefresh } from './get-admin-stats';

export type { StatsSeriesPoint } from '@gpt/contracts';

/** Days the dashboard chart covers. */
export const CHART_DAYS = 30;

export function getStatsSeries(days: number, signal?: AbortSignal): Promise<StatsSeriesResponse> {
  return api.get(apiPath('getAdminStatsSeries'), StatsSeriesResponse, {
    query: { days },
    signal,
  });
}

export const statsSeriesQueryOptions = (days: number) =>
  queryOptions({
    queryKey: ['admin', 'stats', 'series', days],
    queryFn: ({ signal }) => getStatsSeries(days, signal),
    ...liveRefresh,
  });

export function useStatsSeries(days: number) {
  return useQuery(statsSeriesQueryOptions(days));
}
