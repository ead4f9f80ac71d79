import { type HistoryMessage } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { historyKey } from './get-history';

/** GET /api/admin/history/{id}: the full message. */
export function getHistoryMessage(id: number): Promise<HistoryMessage> {
  return callRoute('getAdminHistoryById', { params: { id } });
}

export type Neighbour = 'prev' | 'next';

const neighbourRoute = { prev: 'getAdminHistoryPrevById', next: 'getAdminHistoryNextById' } as const;

/**
 * GET /api/admin/history/prev|next/{id}?userId: the message above (prev, newer) or below (next,
 * older) in the list's default order; null when there is none.
 */
export function getNeighbour(which: Neighbour, id: number, userId?: string): Promise<HistoryMessage | null> {
  return callRoute(neighbourRoute[which], { params: { id }, query: { userId } });
}

export function useHistoryMessage(id: number | null) {
  return useQuery({
    ...queryOptions({
      queryKey: [...historyKey, 'message', id],
      queryFn: () => getHistoryMessage(id ?? 0),
    }),
    enabled: id !== null,
  });
}

/** Loaded with the message, so the button knows whether there is a neighbour before it is pressed. */
export function useNeighbour(which: Neighbour, id: number | null, userId?: string) {
  return useQuery({
    ...queryOptions({
      queryKey: [...historyKey, which, id, userId ?? null],
      queryFn: () => getNeighbour(which, id ?? 0, userId),
    }),
    enabled: id !== null,
    retry: false,
  });
}
