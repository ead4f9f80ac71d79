import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/**
 * POST /api/auth/link { token } (bearer): links the signed-in site account to the Telegram
 * account that issued the link token. The spec does not name this call; keep it in step with
 * the auth service's contract.
 */
export async function linkAccount(token: string): Promise<void> {
  await callRoute('postAuthLink', { body: { token } });
}

export function useLinkAccount() {
  return useMutation({ mutationFn: linkAccount });
}
