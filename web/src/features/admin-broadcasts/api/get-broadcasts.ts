import type { AdminBroadcastsResponse, Broadcast } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const adminBroadcastsKey = ['admin-broadcasts'] as const;

/** While a broadcast is waiting or being sent, its figures are read again this often. */
const LIVE_MS = 2000;

const running = (broadcast: Broadcast) => broadcast.status === 'sending' || broadcast.status === 'scheduled';

/** GET /api/admin/broadcasts?page&limit: the history, newest first, with each broadcast's figures. */
export const adminBroadcastsQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminBroadcastsKey, query],
    queryFn: ({ signal }): Promise<AdminBroadcastsResponse> => callRoute('getAdminBroadcasts', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(running) ? LIVE_MS : false),
  });

export function useAdminBroadcasts(query: Record<string, string | number>) {
  return useQuery(adminBroadcastsQuery(query));
}
