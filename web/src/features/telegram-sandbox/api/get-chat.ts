import type { SandboxChat } from '@gpt/contracts';
import { useEffect, useState } from 'react';

import { api } from '@/lib/api-client';

/** Seconds one read waits for the chat to change (the gateway answers within 30). */
const LONG_POLL_SECONDS = 20;
const RETRY_MS = 2000;

/** GET /api/telegram/sandbox/chat: the chat now, or (with `after`) once it changes after that version. */
export function getSandboxChat(userId: number, after: number | undefined, signal: AbortSignal): Promise<SandboxChat> {
  return api.get<SandboxChat>('/api/telegram/sandbox/chat', {
    query: { user_id: userId, after, wait: after === undefined ? undefined : LONG_POLL_SECONDS },
    signal,
  });
}

/**
 * The sandbox chat, kept current by long polling: every message the bot sends, and every edit of
 * an answer it streams, shows as soon as it happens. A failed read is retried after a pause.
 */
export function useSandboxChat(userId: number): { chat: SandboxChat | null; failed: boolean } {
  const [state, setState] = useState<{ userId: number; chat: SandboxChat | null; failed: boolean }>({
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
          const chat = await getSandboxChat(userId, after, signal);
          after = chat.version;
          setState({ userId, chat, failed: false });
        } catch {
          if (signal.aborted) return;
          setState((previous) => ({ ...previous, failed: true }));
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    })();
    return () => controller.abort();
  }, [userId]);

  // Another user's chat is never shown while the new one loads.
  return state.userId === userId ? state : { chat: null, failed: false };
}
