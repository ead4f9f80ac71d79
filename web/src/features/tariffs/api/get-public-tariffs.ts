import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { type TariffPlan, tariffPlans } from '../tariff-plans';

/** The plan the cards highlight. */
const HIGHLIGHTED = 'Premium';

/** GET /api/tariffs as cards; the spec's three plans stand in while it loads or when billing does not answer. */
export async function getPublicTariffPlans(signal?: AbortSignal): Promise<readonly TariffPlan[]> {
  const { tariffs } = await callRoute('getTariffs', { signal });
  return tariffs.map((tariff) => ({
    id: String(tariff.id),
    name: tariff.name,
    monthlyPrice: tariff.monthly_price,
    creditsPerRuble: tariff.credits_per_ruble,
    includedCredits: tariff.included_credits,
    canGenerateImages: tariff.can_generate_images,
    description: tariff.description ?? '',
    highlighted: tariff.name === HIGHLIGHTED,
  }));
}

export function usePublicTariffPlans() {
  const query = useQuery(
    queryOptions({
      queryKey: ['tariffs', 'public'],
      queryFn: ({ signal }) => getPublicTariffPlans(signal),
      staleTime: 5 * 60_000,
    }),
  );
  return query.data && query.data.length > 0 ? query.data : tariffPlans;
}
