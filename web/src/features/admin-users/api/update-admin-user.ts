import {
  type AdminUserRow as AdminUser,
  type AdminUserUpdateRequest as AdminUserUpdate,
  AdminUserUpdateResponse,
} from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** PUT /api/admin/users/{id} → { success, user } */
export async function updateAdminUser({ id, ...body }: AdminUserUpdate & { id: number }): Promise<AdminUser> {
  const { user } = await api.put(apiPath('putAdminUsersById', { id }), AdminUserUpdateResponse, body);
  return user;
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminUser,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
