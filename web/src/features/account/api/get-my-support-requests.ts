import { MySupportRequestsResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/feedback/mine: the user's messages from the contact form and the answers to them. */
export function useMySupportRequests() {
  return useQuery({
    queryKey: ['my-support-requests'],
    queryFn: ({ signal }) => api.get(apiPath('getFeedbackMine'), MySupportRequestsResponse, { signal }),
    staleTime: 60_000,
  });
}
