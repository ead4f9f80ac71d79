import { SuccessResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminModelsKey } from './get-admin-models';

/** DELETE /api/admin/models/{id} */
export async function deleteModel(id: number): Promise<void> {
  await api.delete(apiPath('deleteAdminModelsById', { id }), SuccessResponse);
}

/** After a delete the list reloads (docs/product.md, States). */
export function useDeleteModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModelsKey }),
  });
}
