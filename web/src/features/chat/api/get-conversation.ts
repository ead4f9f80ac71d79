import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { chatKey } from './chat-types';

export const conversationKey = (id: string) => [...chatKey, 'conversation', id] as const;

/**
 * GET /api/chat/conversations/{id}: its messages and the answer running in it, if any. While no answer runs it
 * is read again every few seconds and when the tab comes back, so another tab's or the bot's messages show;
 * a running answer streams, and its end reads it again.
 */
export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: conversationKey(id),
    queryFn: () => callRoute('getChatConversationsById', { params: { id } }),
    refetchOnWindowFocus: (query) => !query.state.data?.running,
    refetchInterval: (query) => (query.state.data?.running ? false : 5_000),
    staleTime: 0,
  });

export const useConversation = (id: string | null) =>
  useQuery({ ...conversationQuery(id ?? ''), enabled: id !== null });
