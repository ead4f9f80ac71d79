import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { chatKey } from './chat-types';

/** GET /api/chat/search?q=: messages of all the user's conversations that hold the words, with a snippet. */
export const searchChatsQuery = (q: string) =>
  queryOptions({
    queryKey: [...chatKey, 'search', q],
    queryFn: async () => (await callRoute('getChatSearch', { query: { q } })).items,
    placeholderData: keepPreviousData,
  });

export const useSearchChats = (q: string) => useQuery({ ...searchChatsQuery(q), enabled: q.trim() !== '' });
