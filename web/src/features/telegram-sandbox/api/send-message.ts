import { SandboxSent, type SandboxSendRequest } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/messages: text to the bot (a command when it starts with /). */
export function sendSandboxMessage(request: SandboxSendRequest): Promise<SandboxSent> {
  return api.post(apiPath('postTelegramSandboxChatMessages'), SandboxSent, request);
}

export function useSendSandboxMessage() {
  return useMutation({ mutationFn: sendSandboxMessage });
}
