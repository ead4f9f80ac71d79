import { WelcomeOfferResponse } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/welcome_offer: the welcome grant now and what a typical message costs with the default model. */
export function getWelcomeOffer(signal?: AbortSignal): Promise<WelcomeOfferResponse> {
  return callRoute('getWelcomeOffer', { signal });
}

export const welcomeOfferQuery = () =>
  queryOptions({
    queryKey: ['welcome-offer'],
    queryFn: ({ signal }) => getWelcomeOffer(signal),
    staleTime: 5 * 60_000,
  });

/** Undefined while loading or when chat-history does not answer (the estimate is then left out). */
export function useWelcomeOffer() {
  return useQuery(welcomeOfferQuery()).data;
}
