import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/chat/answers/{answerId}/stop: the model stops, the text so far stays; the stream then ends as stopped. */
export const useStopAnswer = () =>
  useMutation({
    mutationFn: (answerId: string) => callRoute('postChatAnswersByAnswerIdStop', { params: { answerId } }),
  });
