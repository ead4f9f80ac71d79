import { SuccessResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminModesKey } from './get-admin-modes';

/** DELETE /api/admin/modes/{id} */
export async function deleteMode(id: number): Promise<void> {
  await api.delete(apiPath('deleteAdminModesById', { id }), SuccessResponse);
}

export function useDeleteMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModesKey }),
  });
}
