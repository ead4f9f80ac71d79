import { SandboxPayResponse, type SandboxPayRequest } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/payments: the user pays an invoice of the bot in Stars. */
export function paySandboxInvoice(request: SandboxPayRequest): Promise<SandboxPayResponse> {
  return api.post(apiPath('postTelegramSandboxChatPayments'), SandboxPayResponse, request);
}

export function usePaySandboxInvoice() {
  return useMutation({ mutationFn: paySandboxInvoice });
}
