import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { liveRefresh } from './get-admin-stats';

/** GET /api/admin/subscriptions/stats: renewing subscriptions, the roubles a month they bring, cancellations this month. */
export const subscriptionStatsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'subscription-stats'],
    queryFn: ({ signal }) => callRoute('getAdminSubscriptionsStats', { signal }),
    ...liveRefresh,
  });

export function useSubscriptionStats() {
  return useQuery(subscriptionStatsQuery());
}
