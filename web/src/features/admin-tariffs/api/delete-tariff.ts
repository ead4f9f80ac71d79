import { SuccessResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminTariffsKey } from './get-admin-tariffs';

/** DELETE /api/admin/tariffs/{id} */
export async function deleteTariff(id: number): Promise<void> {
  await api.delete(apiPath('deleteAdminTariffsById', { id }), SuccessResponse);
}

/** After a delete the list reloads (docs/product.md, States). */
export function useDeleteTariff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTariff,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminTariffsKey }),
  });
}
