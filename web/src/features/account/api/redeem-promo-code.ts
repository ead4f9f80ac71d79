import { RedeemPromoResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { useSessionActions } from '@/lib/session/use-session';

/** POST /api/billing/promo-codes/redeem → what the code gave, or the Russian refusal as an ApiError. */
export function redeemPromoCode(code: string): Promise<RedeemPromoResponse> {
  return api.post('/api/billing/promo-codes/redeem', RedeemPromoResponse, {
    code,
  });
}

/** On success the profile is read again for the new balance. */
export function useRedeemPromoCode() {
  const { fetchProfile } = useSessionActions();
  return useMutation({
    mutationFn: redeemPromoCode,
    onSuccess: () => fetchProfile().catch(() => undefined),
  });
}
