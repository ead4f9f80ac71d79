import type { PublicTariff, PublicTariffsResponse } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/tariffs: the active tariffs. */
export async function getTariffs(): Promise<PublicTariff[]> {
  const { tariffs } = await api.get<PublicTariffsResponse>('/api/tariffs');
  return tariffs;
}

export const tariffsQuery = () =>
  queryOptions({ queryKey: ['billing-tariffs'], queryFn: getTariffs, staleTime: 60_000 });

export function useTariffs() {
  return useQuery(tariffsQuery());
}
