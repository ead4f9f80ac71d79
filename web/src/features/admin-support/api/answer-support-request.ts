import { type SupportRequest } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { supportRequestsKey } from './get-support-requests';

/** POST /api/admin/support-requests/{id}/answer: through the bot or by e-mail, as the request allows. */
export async function answerSupportRequest({ id, answer }: { id: number; answer: string }): Promise<SupportRequest> {
  const res = await callRoute('postAdminSupportRequestsByIdAnswer', {
    params: { id },
    body: {
      answer,
    },
  });
  return res.support_request;
}

export function useAnswerSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerSupportRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportRequestsKey }),
  });
}
