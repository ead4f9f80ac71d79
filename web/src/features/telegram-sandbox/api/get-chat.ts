import { SandboxChat } from '@gpt/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { callRoute, ApiError } from '@/lib/api-client';

import { sandboxSessionQuery } from './start-session';

/** Seconds one read waits for the chat to change (the gateway answers within 30). */
const LONG_POLL_SECONDS = 20;
const RETRY_MS = 2000;

/** GET /api/telegram/sandbox/chat: the cookie's chat now, or (with `after`) once it changes after that version. */
export function getSandboxChat(after: number | undefined, signal: AbortSignal): Promise<SandboxChat> {
  return callRoute('getTelegramSandboxChat', {
    query: { after, wait: after === undefined ? undefined : LONG_POLL_SECONDS },
    signal,
  });
}

/**
 * The chat of the session's user (`userId` only restarts the reads when the user changes), kept
 * current by long polling: every message the bot sends, and every edit of an answer it streams, shows
 * as soon as it happens. A failed read is retried after a pause; a session the sandbox has forgotten
 * is started anew.
 */
export function useSandboxChat(userId: number): {
  chat: SandboxChat | null;
  failed: boolean;
} {
  const queryClient = useQueryClient();
  const [state, setState] = useState<{
    userId: number;
    chat: SandboxChat | null;
    failed: boolean;
  }>({
    userId,
    chat: null,
    failed: false,
  });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      let after: number | undefined;
      while (!signal.aborted) {
        try {
          const chat = await getSandboxChat(after, signal);
          after = chat.version;
          setState({ userId, chat, failed: false });
        } catch (err) {
          if (signal.aborted) return;
          if (err instanceof ApiError && err.status === 401) {
            await queryClient.invalidateQueries({
              queryKey: sandboxSessionQuery.queryKey,
            });
            return;
          }
          setState((previous) => ({ ...previous, failed: true }));
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    })();
    return () => controller.abort();
  }, [userId, queryClient]);

  // Another user's chat is never shown while the new one loads.
  return state.userId === userId ? state : { chat: null, failed: false };
}
