import { SandboxSession, type SandboxSessionRequest } from '@gpt/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/**
 * POST /api/telegram/sandbox/session: the pseudo user this browser plays. The server keeps it behind
 * an HttpOnly cookie; a browser that has one gets the same user back unless it asks for a fresh one.
 */
export function startSandboxSession(request: SandboxSessionRequest = {}): Promise<SandboxSession> {
  return callRoute('postTelegramSandboxSession', { body: request });
}

export const sandboxSessionQuery = queryOptions({
  queryKey: ['telegram-sandbox', 'session'],
  queryFn: () => startSandboxSession(),
  staleTime: Infinity,
  retry: false,
});

export function useSandboxSession() {
  return useQuery(sandboxSessionQuery);
}

/** A new user with a new, empty chat (to see the bot greet someone new). */
export function useNewSandboxUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startSandboxSession({ fresh: true }),
    onSuccess: (session) => queryClient.setQueryData(sandboxSessionQuery.queryKey, session),
  });
}
