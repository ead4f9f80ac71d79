import { type AdminSubscription, type AdminSubscriptionsResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

export const adminSubscriptionsKey = ['admin-subscriptions'] as const;

/** GET /api/admin/subscriptions?page&limit&sortField&sortOrder&userId&status&method → { subscriptions, total } */
export const adminSubscriptionsQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminSubscriptionsKey, query],
    queryFn: ({ signal }): Promise<AdminSubscriptionsResponse> => callRoute('getAdminSubscriptions', { query, signal }),
    placeholderData: keepPreviousData,
  });

export function useAdminSubscriptions(query: Record<string, string | number>) {
  return useQuery(adminSubscriptionsQuery(query));
}

/** «Продлить сейчас» or «Отменить», with the reason and the Idempotency-Key of the opened confirmation. */
export type SubscriptionAction = { id: number; action: 'renew' | 'cancel'; reason: string };

export function useSubscriptionAction(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: SubscriptionAction): Promise<AdminSubscription> => {
      const call = { params: { id }, body: { reason }, headers: actionKeyHeaders(key) };
      return action === 'renew'
        ? callRoute('postAdminSubscriptionsByIdRenew', call)
        : callRoute('postAdminSubscriptionsByIdCancel', call);
    },
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminSubscriptionsKey }),
  });
}
