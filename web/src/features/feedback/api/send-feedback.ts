import { type FeedbackRequest, type RequestBody, SuccessResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** The contact form's body (`POST /api/feedback`). */
export type FeedbackInput = RequestBody<typeof FeedbackRequest>;

/** POST /api/feedback — no login needed; success is judged by the HTTP status only. */
export async function sendFeedback(input: FeedbackInput): Promise<void> {
  await api.post(apiPath('postFeedback'), SuccessResponse, input);
}

export function useSendFeedback() {
  return useMutation({ mutationFn: sendFeedback });
}
