import { SandboxPayResponse, type SandboxPayRequest } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/payments: the user pays an invoice of the bot in Stars. */
export function paySandboxInvoice(request: SandboxPayRequest): Promise<SandboxPayResponse> {
  return callRoute('postTelegramSandboxChatPayments', { body: request });
}

export function usePaySandboxInvoice() {
  return useMutation({ mutationFn: paySandboxInvoice });
}
