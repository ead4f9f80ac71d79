import { PromoCodeResponse, type PromoCode, type PromoCodeInput, type RequestBody } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminPromoCodesKey } from './get-admin-promo-codes';

export type PromoCodeBody = RequestBody<typeof PromoCodeInput>;

/** Creates (no id) or replaces (id) a promo code; answers the stored code. */
export async function savePromoCode({ id, ...body }: PromoCodeBody & { id?: number }): Promise<PromoCode> {
  const { promo_code } =
    id === undefined
      ? await api.post(apiPath('postAdminPromoCodes'), PromoCodeResponse, body)
      : await api.put(apiPath('putAdminPromoCodesById', { id }), PromoCodeResponse, body);
  return promo_code;
}

export function useSavePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePromoCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPromoCodesKey }),
  });
}
