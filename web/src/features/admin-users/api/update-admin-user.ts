import {
  type AdminUserRow as AdminUser,
  type AdminUserUpdateRequest as AdminUserUpdate,
  AdminUserUpdateResponse,
} from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { api } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** PUT /api/admin/users/{id} → { success, user }, with the key of the opened form. */
export async function updateAdminUser({
  id,
  key,
  ...body
}: AdminUserUpdate & { id: number; key: string }): Promise<AdminUser> {
  const { user } = await api.put(apiPath('putAdminUsersById', { id }), AdminUserUpdateResponse, body, {
    headers: actionKeyHeaders(key),
  });
  return user;
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminUser,
    ...keyedActionRetry,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
