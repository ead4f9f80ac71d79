import { SandboxSent, type SandboxPressRequest } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/buttons: the press of an inline button with callback data. */
export function pressSandboxButton(request: SandboxPressRequest): Promise<SandboxSent> {
  return callRoute('postTelegramSandboxChatButtons', { body: request });
}

export function usePressSandboxButton() {
  return useMutation({ mutationFn: pressSandboxButton });
}
