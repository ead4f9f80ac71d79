import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/**
 * POST /api/chat/conversations/{id}/messages: the question as stored and the id of the answer now running;
 * a refusal (400, 402 «Недостаточно кредитов…», 409 an answer running) is an ApiError with the server's words.
 */
export const useSendMessage = () =>
  useMutation({
    mutationFn: ({ conversationId, text }: { conversationId: string; text: string }) =>
      callRoute('postChatConversationsByIdMessages', { params: { id: conversationId }, body: { text } }),
  });
