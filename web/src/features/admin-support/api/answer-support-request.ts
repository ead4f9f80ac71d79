import { SupportRequestResponse, type SupportRequest } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { supportRequestsKey } from './get-support-requests';

/** POST /api/admin/support-requests/{id}/answer: through the bot or by e-mail, as the request allows. */
export async function answerSupportRequest({ id, answer }: { id: number; answer: string }): Promise<SupportRequest> {
  const res = await api.post(apiPath('postAdminSupportRequestsByIdAnswer', { id }), SupportRequestResponse, {
    answer,
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
