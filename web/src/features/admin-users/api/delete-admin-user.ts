import { SuccessResponse } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** DELETE /api/admin/users/{id} */
export async function deleteAdminUser(id: number): Promise<void> {
  await api.delete(`/api/admin/users/${id}`, SuccessResponse);
}

export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminUser,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
