import { useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/feedback/mine: the user's messages from the contact form and the answers to them. */
export function useMySupportRequests() {
  return useQuery({
    queryKey: ['my-support-requests'],
    queryFn: ({ signal }) => callRoute('getFeedbackMine', { signal }),
    staleTime: 60_000,
  });
}
