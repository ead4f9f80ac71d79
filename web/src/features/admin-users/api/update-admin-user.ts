import type { AdminUserRow as AdminUser, AdminUserUpdateRequest as AdminUserUpdate } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** PUT /api/admin/users/{id} → { success, user } */
export async function updateAdminUser({ id, ...body }: AdminUserUpdate & { id: number }): Promise<AdminUser> {
  const { user } = await api.put<{ success: true; user: AdminUser }>(`/api/admin/users/${id}`, body);
  return user;
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminUser,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
