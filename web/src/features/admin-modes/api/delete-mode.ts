import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminModesKey } from './get-admin-modes';

/** DELETE /api/admin/modes/{id} */
export async function deleteMode(id: number): Promise<void> {
  await callRoute('deleteAdminModesById', { params: { id } });
}

export function useDeleteMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModesKey }),
  });
}
