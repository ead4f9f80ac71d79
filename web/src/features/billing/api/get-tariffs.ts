import { PublicTariffsResponse, type PublicTariff } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/tariffs: the active tariffs. */
export async function getTariffs(): Promise<PublicTariff[]> {
  const { tariffs } = await api.get(apiPath('getTariffs'), PublicTariffsResponse);
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
