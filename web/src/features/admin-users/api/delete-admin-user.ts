import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** DELETE /api/admin/users/{id} */
export async function deleteAdminUser(id: number, key: string): Promise<void> {
  await callRoute('deleteAdminUsersById', { params: { id }, headers: actionKeyHeaders(key) });
}

/** `key`: the Idempotency-Key of the opened confirmation. */
export function useDeleteAdminUser(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteAdminUser(id, key),
    ...keyedActionRetry,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
