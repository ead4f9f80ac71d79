import { type PublicTariff } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/tariffs: the active tariffs. */
export async function getTariffs(): Promise<PublicTariff[]> {
  const { tariffs } = await callRoute('getTariffs');
  return tariffs;
}

export const tariffsQuery = () =>
  queryOptions({
    queryKey: ['billing-tariffs'],
    queryFn: getTariffs,
    staleTime: 60_000,
  });

export function useTariffs() {
  return useQuery(tariffsQuery());
}
