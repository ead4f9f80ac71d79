import { type AdminUserRow as AdminUser, type AdminUserUpdateRequest as AdminUserUpdate } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** PUT /api/admin/users/{id} → { success, user }, with the key of the opened form. */
export async function updateAdminUser(
  { id, ...body }: AdminUserUpdate & { id: number },
  key: string,
): Promise<AdminUser> {
  const { user } = await callRoute('putAdminUsersById', { params: { id }, body, headers: actionKeyHeaders(key) });
  return user;
}

/** `key`: the Idempotency-Key of the opened form. */
export function useUpdateAdminUser(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: AdminUserUpdate & { id: number }) => updateAdminUser(edit, key),
    ...keyedActionRetry,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
