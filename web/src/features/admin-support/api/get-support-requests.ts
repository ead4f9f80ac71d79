import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const supportRequestsKey = ['admin-support-requests'] as const;

/** GET /api/admin/support-requests?page&limit&status → { data, total, unread }, new ones first. */
export function useSupportRequests(query: Record<string, string | number>) {
  return useQuery({
    queryKey: [...supportRequestsKey, query],
    queryFn: () => callRoute('getAdminSupportRequests', { query }),
    placeholderData: keepPreviousData,
  });
}

/** How often the menu's count of new requests is read again while the admin is open. */
const UNREAD_REFRESH_MS = 60_000;

/** GET /api/admin/support-requests/unread: the menu badge. */
export function useSupportUnread() {
  return useQuery({
    queryKey: [...supportRequestsKey, 'unread'],
    queryFn: () => callRoute('getAdminSupportRequestsUnread'),
    refetchInterval: UNREAD_REFRESH_MS,
  });
}
