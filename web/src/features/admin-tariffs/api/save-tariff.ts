import { type RequestBody, type Tariff, type TariffInput } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminTariffsKey } from './get-admin-tariffs';

/** The body of POST /api/admin/tariffs and PUT /api/admin/tariffs/{id} (docs/product.md, Calls). */
export type TariffBody = RequestBody<typeof TariffInput>;

/** Creates (no id) or replaces (id) a tariff; answers the stored tariff. */
export async function saveTariff({ id, ...body }: TariffBody & { id?: number }, key: string): Promise<Tariff> {
  const options = { headers: actionKeyHeaders(key) };
  const { tariff } =
    id === undefined
      ? await callRoute('postAdminTariffs', { body, ...options })
      : await callRoute('putAdminTariffsById', { params: { id }, body, ...options });
  return tariff;
}

/** After a save the list reloads (docs/product.md, States). */
/** `key`: the Idempotency-Key of the opened form. */
export function useSaveTariff(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TariffBody & { id?: number }) => saveTariff(body, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminTariffsKey }),
  });
}
