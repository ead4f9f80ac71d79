import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { conversationKey } from './get-conversation';
import { conversationsKey } from './get-conversations';

/** DELETE /api/chat/conversations/{id}. */
export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRoute('deleteChatConversationsById', { params: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: conversationKey(id) });
      return queryClient.invalidateQueries({ queryKey: conversationsKey });
    },
  });
}
