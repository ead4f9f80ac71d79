import { SuccessResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminPromoCodesKey } from './get-admin-promo-codes';

/** DELETE /api/admin/promo-codes/{id} (refused once the code was used). */
export async function deletePromoCode(id: number): Promise<void> {
  await api.delete(apiPath('deleteAdminPromoCodesById', { id }), SuccessResponse);
}

export function useDeletePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePromoCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPromoCodesKey }),
  });
}
