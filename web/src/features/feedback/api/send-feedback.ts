import { type FeedbackRequest, type RequestBody } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** The contact form's body (`POST /api/feedback`). */
export type FeedbackInput = RequestBody<typeof FeedbackRequest>;

/** POST /api/feedback — no login needed; success is judged by the HTTP status only. */
export async function sendFeedback(input: FeedbackInput): Promise<void> {
  await callRoute('postFeedback', { body: input });
}

export function useSendFeedback() {
  return useMutation({ mutationFn: sendFeedback });
}
