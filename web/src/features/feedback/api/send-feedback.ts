import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export interface FeedbackInput {
  telegram: string;
  subject: string;
  message: string;
}

/** POST /api/feedback — no login needed; success is judged by the HTTP status only. */
export async function sendFeedback(input: FeedbackInput): Promise<void> {
  await api.post<unknown>('/api/feedback', input);
}

export function useSendFeedback() {
  return useMutation({ mutationFn: sendFeedback });
}
