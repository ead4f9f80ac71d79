import type { Tariff, TariffResponse } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminTariffsKey } from './get-admin-tariffs';

/** The body of POST /api/admin/tariffs and PUT /api/admin/tariffs/{id} (spec §7). */
export interface TariffBody {
  name: string;
  description: string | null;
  /** Roubles as typed ("350", "499.9"); the server keeps them exact. */
  monthly_price: string;
  credits_per_ruble: number;
  included_credits: number;
  can_generate_images: boolean;
  is_active: boolean;
}

/** Creates (no id) or replaces (id) a tariff; answers the stored tariff. */
export async function saveTariff({ id, ...body }: TariffBody & { id?: number }): Promise<Tariff> {
  const { tariff } =
    id === undefined
      ? await api.post<TariffResponse>('/api/admin/tariffs', body)
      : await api.put<TariffResponse>(`/api/admin/tariffs/${id}`, body);
  return tariff;
}

/** After a save the list reloads (spec §4). */
export function useSaveTariff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTariff,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminTariffsKey }),
  });
}
