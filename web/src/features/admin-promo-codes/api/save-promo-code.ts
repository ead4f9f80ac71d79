import { PromoCodeResponse, type PromoCode, type PromoCodeInput, type RequestBody } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { api } from '@/lib/api-client';

import { adminPromoCodesKey } from './get-admin-promo-codes';

export type PromoCodeBody = RequestBody<typeof PromoCodeInput>;

/** Creates (no id) or replaces (id) a promo code; answers the stored code. */
export async function savePromoCode({ id, ...body }: PromoCodeBody & { id?: number }, key: string): Promise<PromoCode> {
  const options = { headers: actionKeyHeaders(key) };
  const { promo_code } =
    id === undefined
      ? await api.post(apiPath('postAdminPromoCodes'), PromoCodeResponse, body, options)
      : await api.put(apiPath('putAdminPromoCodesById', { id }), PromoCodeResponse, body, options);
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
