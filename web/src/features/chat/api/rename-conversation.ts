import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { chatKey } from './chat-types';

/** PATCH /api/chat/conversations/{id} with its new title. */
export function useRenameConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) =>
      callRoute('patchChatConversationsById', { params: { id }, body: { title } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKey }),
  });
}
