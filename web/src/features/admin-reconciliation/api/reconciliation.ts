import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

const reconciliationKey = ['admin-reconciliation'] as const;

/** GET /api/admin/reconciliation: the latest comparison with YooKassa and Telegram. */
export function useReconciliation() {
  return useQuery({
    queryKey: reconciliationKey,
    queryFn: () => callRoute('getAdminReconciliation'),
  });
}

/** POST /api/admin/reconciliation: compare now; the answer is the new latest report. */
export function useRunReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute('postAdminReconciliation'),
    onSuccess: (answer) => queryClient.setQueryData(reconciliationKey, answer),
  });
}
