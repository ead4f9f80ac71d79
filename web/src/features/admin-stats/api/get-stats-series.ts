import { StatsSeriesResponse } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { liveRefresh } from './get-admin-stats';

export type { StatsSeriesPoint } from '@gpt/contracts';

/** Days the dashboard chart covers. */
export const CHART_DAYS = 30;

export function getStatsSeries(days: number, signal?: AbortSignal): Promise<StatsSeriesResponse> {
  return callRoute('getAdminStatsSeries', { query: { days }, signal });
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
