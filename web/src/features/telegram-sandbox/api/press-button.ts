import { SandboxSent, type SandboxPressRequest } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/buttons: the press of an inline button with callback data. */
export function pressSandboxButton(request: SandboxPressRequest): Promise<SandboxSent> {
  return api.post(apiPath('postTelegramSandboxChatButtons'), SandboxSent, request);
}

export function usePressSandboxButton() {
  return useMutation({ mutationFn: pressSandboxButton });
}
