import { ReferralSummary } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/billing/referrals: the user's referral code, links and what they brought. */
export function getReferrals(signal?: AbortSignal): Promise<ReferralSummary> {
  return api.get(apiPath('getBillingReferrals'), ReferralSummary, { signal });
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
