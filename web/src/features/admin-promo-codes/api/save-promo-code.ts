import { type PromoCode, type PromoCodeInput, type RequestBody } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminPromoCodesKey } from './get-admin-promo-codes';

export type PromoCodeBody = RequestBody<typeof PromoCodeInput>;

/** Creates (no id) or replaces (id) a promo code; answers the stored code. */
export async function savePromoCode({ id, ...body }: PromoCodeBody & { id?: number }, key: string): Promise<PromoCode> {
  const options = { headers: actionKeyHeaders(key) };
  const { promo_code } =
    id === undefined
      ? await callRoute('postAdminPromoCodes', { body, ...options })
      : await callRoute('putAdminPromoCodesById', { params: { id }, body, ...options });
  return promo_code;
}

/** `key`: the Idempotency-Key of the opened form. */
export function useSavePromoCode(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PromoCodeBody & { id?: number }) => savePromoCode(body, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPromoCodesKey }),
  });
}
