import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { conversationsKey } from './get-conversations';

/** POST /api/chat/conversations — «Новый чат»: an empty conversation, the bot's current one from now on. */
export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute('postChatConversations', { body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationsKey }),
  });
}
