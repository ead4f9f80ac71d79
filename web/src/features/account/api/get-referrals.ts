import { ReferralSummary } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/billing/referrals: the user's referral code, links and what they brought. */
export function getReferrals(signal?: AbortSignal): Promise<ReferralSummary> {
  return callRoute('getBillingReferrals', { signal });
}

export const referralsQuery = () =>
  queryOptions({
    queryKey: ['referrals'],
    queryFn: ({ signal }) => getReferrals(signal),
    staleTime: 60_000,
  });

export function useReferrals() {
  return useQuery(referralsQuery());
}
