import type { NewsSubscription } from '@gpt/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

const newsKey = ['news-subscription'] as const;

/** GET /api/auth/profile/news: whether the bot's broadcasts («Новости и акции») reach the user. */
export function useNewsSubscription() {
  return useQuery({ queryKey: newsKey, queryFn: ({ signal }) => callRoute('getAuthProfileNews', { signal }) });
}

/** PUT /api/auth/profile/news: the same switch as the bot's /settings. */
export function useSetNewsSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewsSubscription) => callRoute('putAuthProfileNews', { body }),
    onSuccess: (answer) => queryClient.setQueryData(newsKey, answer),
  });
}
