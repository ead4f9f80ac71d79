import { SandboxSent, type SandboxSendRequest } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/messages: text to the bot (a command when it starts with /). */
export function sendSandboxMessage(request: SandboxSendRequest): Promise<SandboxSent> {
  return callRoute('postTelegramSandboxChatMessages', { body: request });
}

export function useSendSandboxMessage() {
  return useMutation({ mutationFn: sendSandboxMessage });
}
