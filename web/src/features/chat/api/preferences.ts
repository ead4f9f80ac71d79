import { type ChatPreferencesUpdate } from '@gpt/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { chatKey } from './chat-types';

export const preferencesKey = [...chatKey, 'preferences'] as const;

/** GET /api/chat/preferences: the model, the mode and the personal instructions the bot uses too. */
export const preferencesQuery = () =>
  queryOptions({ queryKey: preferencesKey, queryFn: () => callRoute('getChatPreferences') });

export const usePreferences = () => useQuery(preferencesQuery());

/** PUT /api/chat/preferences with what changed; the answer is the whole new set. */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ChatPreferencesUpdate) => callRoute('putChatPreferences', { body: change }),
    onSuccess: (answer) => queryClient.setQueryData(preferencesKey, answer),
  });
}
