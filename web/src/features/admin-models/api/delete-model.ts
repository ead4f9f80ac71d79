import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminModelsKey } from './get-admin-models';

/** DELETE /api/admin/models/{id} */
export async function deleteModel(id: number, key: string): Promise<void> {
  await callRoute('deleteAdminModelsById', { params: { id }, headers: actionKeyHeaders(key) });
}

/** After a delete the list reloads (docs/product.md, States). */
/** `key`: the Idempotency-Key of the opened confirmation. */
export function useDeleteModel(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteModel(id, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModelsKey }),
  });
}
