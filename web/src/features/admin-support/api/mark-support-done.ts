import { type SupportRequest } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { supportRequestsKey } from './get-support-requests';

/** POST /api/admin/support-requests/{id}/done: handled without an answer in the product. */
export async function markSupportDone(id: number): Promise<SupportRequest> {
  const res = await callRoute('postAdminSupportRequestsByIdDone', { params: { id } });
  return res.support_request;
}

export function useMarkSupportDone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markSupportDone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportRequestsKey }),
  });
}
