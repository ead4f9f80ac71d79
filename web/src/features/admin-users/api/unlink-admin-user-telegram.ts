import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { reloadUsersScreen } from './get-admin-users';

/** DELETE /api/admin/users/{id}/telegram: the user's site account lets go of its Telegram account. */
export async function unlinkAdminUserTelegram(id: number, key: string): Promise<void> {
  await callRoute('deleteAdminUsersByIdTelegram', { params: { id }, headers: actionKeyHeaders(key) });
}

/** `key`: the Idempotency-Key of the opened confirmation. */
export function useUnlinkAdminUserTelegram(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unlinkAdminUserTelegram(id, key),
    ...keyedActionRetry,
    onSuccess: () => reloadUsersScreen(queryClient),
  });
}
