import { type TariffOption } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/admin/tariffs/all → [{ id, name, monthly_price }] */
export function getTariffOptions(): Promise<TariffOption[]> {
  return callRoute('getAdminTariffsAll');
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
