import { type TariffOption, TariffOptionsResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/admin/tariffs/all → [{ id, name, monthly_price }] */
export function getTariffOptions(): Promise<TariffOption[]> {
  return api.get(apiPath('getAdminTariffsAll'), TariffOptionsResponse);
}

export const tariffOptionsQuery = () =>
  queryOptions({
    queryKey: ['admin-tariff-options'],
    queryFn: () =>
      // docs/product.md, Errors: a failure to load the tariffs for selects is only logged.
      getTariffOptions().catch((err: unknown) => {
        console.error('Tariffs for the select failed to load', err);
        return [];
      }),
    staleTime: 60_000,
  });

export function useTariffOptions() {
  return useQuery(tariffOptionsQuery());
}
