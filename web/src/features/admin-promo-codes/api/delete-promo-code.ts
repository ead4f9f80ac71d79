import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminPromoCodesKey } from './get-admin-promo-codes';

/** DELETE /api/admin/promo-codes/{id} (refused once the code was used). */
export async function deletePromoCode(id: number, key: string): Promise<void> {
  await callRoute('deleteAdminPromoCodesById', { params: { id }, headers: actionKeyHeaders(key) });
}

/** `key`: the Idempotency-Key of the opened confirmation. */
export function useDeletePromoCode(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deletePromoCode(id, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPromoCodesKey }),
  });
}
