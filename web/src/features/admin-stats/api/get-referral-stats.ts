import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { liveRefresh } from './get-admin-stats';

/** GET /api/admin/referrals/stats: invited, paying and bonus credits paid out this month. */
export const referralStatsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'referral-stats'],
    queryFn: ({ signal }) => callRoute('getAdminReferralsStats', { signal }),
    ...liveRefresh,
  });

export function useReferralStats() {
  return useQuery(referralStatsQuery());
}
