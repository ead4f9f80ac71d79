import { type BalanceSnapshot } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

export const balanceKey = ['billing-balance'] as const;

/** GET /api/billing/balance: credits, included credits, tariff and its end, as billing holds them. */
export function getBalance(): Promise<BalanceSnapshot> {
  return callRoute('getBillingBalance');
}

export const balanceQuery = () => queryOptions({ queryKey: balanceKey, queryFn: getBalance });

export function useBalance(enabled = true) {
  return useQuery({ ...balanceQuery(), enabled });
}
