import { SandboxSent, type SandboxSendRequest } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/messages: text to the bot (a command when it starts with /). */
export function sendSandboxMessage(request: SandboxSendRequest): Promise<SandboxSent> {
  return api.post('/api/telegram/sandbox/chat/messages', SandboxSent, request);
}

export function useSendSandboxMessage() {
  return useMutation({ mutationFn: sendSandboxMessage });
}
