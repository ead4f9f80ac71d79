import { SupportRequestResponse, type SupportRequest } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { supportRequestsKey } from './get-support-requests';

/** POST /api/admin/support-requests/{id}/done: handled without an answer in the product. */
export async function markSupportDone(id: number): Promise<SupportRequest> {
  const res = await api.post(apiPath('postAdminSupportRequestsByIdDone', { id }), SupportRequestResponse, {});
  return res.support_request;
}

export function useMarkSupportDone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markSupportDone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportRequestsKey }),
  });
}
