import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminTariffsKey } from './get-admin-tariffs';

/** DELETE /api/admin/tariffs/{id} */
export async function deleteTariff(id: number, key: string): Promise<void> {
  await callRoute('deleteAdminTariffsById', { params: { id }, headers: actionKeyHeaders(key) });
}

/** After a delete the list reloads (docs/product.md, States). */
/** `key`: the Idempotency-Key of the opened confirmation. */
export function useDeleteTariff(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteTariff(id, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminTariffsKey }),
  });
}
