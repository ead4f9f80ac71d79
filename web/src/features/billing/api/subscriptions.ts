import { type UserSubscriptionsResponse } from '@gpt/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const subscriptionsKey = ['billing-subscriptions'] as const;

/** GET /api/billing/subscriptions: the user's renewing tariffs, the renewing ones first. */
export function getSubscriptions(signal?: AbortSignal): Promise<UserSubscriptionsResponse> {
  return callRoute('getBillingSubscriptions', { signal });
}

export const subscriptionsQuery = () =>
  queryOptions({ queryKey: subscriptionsKey, queryFn: ({ signal }) => getSubscriptions(signal) });

export function useSubscriptions() {
  return useQuery(subscriptionsQuery());
}

/** GET /api/billing/subscriptions/consent/{tariff_id}: the consent text shown beside «Продлевать автоматически». */
export function useRenewalConsent(tariffId: number | null) {
  return useQuery({
    queryKey: ['billing-renewal-consent', tariffId],
    queryFn: ({ signal }) =>
      callRoute('getBillingSubscriptionsConsentByTariffId', { params: { tariff_id: tariffId as number }, signal }),
    enabled: tariffId !== null,
    retry: false,
  });
}

/** «Отменить автопродление» (`card: false`) or «Удалить карту» (`card: true`) of one subscription. */
export function useCancelSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, card }: { id: number; card: boolean }) =>
      card
        ? callRoute('deleteBillingSubscriptionsByIdCard', { params: { id } })
        : callRoute('deleteBillingSubscriptionsById', { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: subscriptionsKey }),
  });
}
