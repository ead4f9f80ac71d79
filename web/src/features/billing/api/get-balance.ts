import { BalanceSnapshot } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const balanceKey = ['billing-balance'] as const;

/** GET /api/billing/balance: credits, included credits, tariff and its end, as billing holds them. */
export function getBalance(): Promise<BalanceSnapshot> {
  return api.get(apiPath('getBillingBalance'), BalanceSnapshot);
}

export const balanceQuery = () => queryOptions({ queryKey: balanceKey, queryFn: getBalance });

export function useBalance(enabled = true) {
  return useQuery({ ...balanceQuery(), enabled });
}
