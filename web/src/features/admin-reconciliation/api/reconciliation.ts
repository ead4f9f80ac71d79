import { AdminReconciliationResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

const reconciliationKey = ['admin-reconciliation'] as const;

/** GET /api/admin/reconciliation: the latest comparison with YooKassa and Telegram. */
export function useReconciliation() {
  return useQuery({
    queryKey: reconciliationKey,
    queryFn: () => api.get(apiPath('getAdminReconciliation'), AdminReconciliationResponse),
  });
}

/** POST /api/admin/reconciliation: compare now; the answer is the new latest report. */
export function useRunReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(apiPath('postAdminReconciliation'), AdminReconciliationResponse),
    onSuccess: (answer) => queryClient.setQueryData(reconciliationKey, answer),
  });
}
