import { RedeemPromoResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';
import { refreshSession } from '@/lib/session/session';

/** POST /api/billing/promo-codes/redeem → what the code gave, or the Russian refusal as an ApiError. */
export function redeemPromoCode(code: string): Promise<RedeemPromoResponse> {
  return callRoute('postBillingPromoCodesRedeem', {
    body: {
      code,
    },
  });
}

/** On success the profile is read again for the new balance. */
export function useRedeemPromoCode() {
  return useMutation({
    mutationFn: redeemPromoCode,
    onSuccess: () => refreshSession().catch(() => undefined),
  });
}
