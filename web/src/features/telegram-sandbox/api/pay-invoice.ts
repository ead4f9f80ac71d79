import type { SandboxPayRequest, SandboxPayResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/payments: the user pays an invoice of the bot in Stars. */
export function paySandboxInvoice(request: SandboxPayRequest): Promise<SandboxPayResponse> {
  return api.post<SandboxPayResponse>('/api/telegram/sandbox/chat/payments', request);
}

export function usePaySandboxInvoice() {
  return useMutation({ mutationFn: paySandboxInvoice });
}
