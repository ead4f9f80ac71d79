import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { chatKey } from './chat-types';

export const conversationsKey = [...chatKey, 'conversations'] as const;

/** GET /api/chat/conversations: the user's conversations from both doors, newest activity first. */
export const conversationsQuery = () =>
  queryOptions({
    queryKey: conversationsKey,
    queryFn: async () => (await callRoute('getChatConversations')).items,
    // A question asked in Telegram shows up here too.
    refetchInterval: 15_000,
    refetchOnWindowFocus: true,
  });

export const useConversations = () => useQuery(conversationsQuery());
