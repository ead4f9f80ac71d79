import { SuccessResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** DELETE /api/admin/users/{id} */
export async function deleteAdminUser(id: number): Promise<void> {
  await api.delete(apiPath('deleteAdminUsersById', { id }), SuccessResponse);
}

export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminUser,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
