import type { BroadcastAudience, BroadcastContent, CreateBroadcastRequest, RequestBody } from '@gpt/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminBroadcastsKey } from './get-broadcasts';

export type ContentBody = RequestBody<typeof BroadcastContent>;
export type AudienceBody = RequestBody<typeof BroadcastAudience>;

/** POST /api/admin/broadcasts/count: the recipients the audience reaches now. */
export function useCountRecipients() {
  return useMutation({
    mutationFn: (audience: AudienceBody) => callRoute('postAdminBroadcastsCount', { body: { audience } }),
  });
}

/** POST /api/admin/broadcasts/preview: the message as Telegram will show it. */
export function usePreviewBroadcast() {
  return useMutation({
    mutationFn: (content: ContentBody) => callRoute('postAdminBroadcastsPreview', { body: content }),
  });
}

/** POST /api/admin/broadcasts/test: «Отправить мне», to the admin's own linked Telegram. */
export function useSendToMyself() {
  return useMutation({ mutationFn: (content: ContentBody) => callRoute('postAdminBroadcastsTest', { body: content }) });
}

/** POST /api/admin/broadcasts: starts it now or at its time; `key` is the Idempotency-Key of this composition. */
export function useCreateBroadcast(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RequestBody<typeof CreateBroadcastRequest>) =>
      callRoute('postAdminBroadcasts', { body, headers: actionKeyHeaders(key) }),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminBroadcastsKey }),
  });
}

/** GET /api/tariffs: the tariffs an audience may be narrowed to. */
export function useAudienceTariffs() {
  return useQuery({
    queryKey: ['admin-broadcasts', 'tariffs'],
    queryFn: async ({ signal }) => (await callRoute('getTariffs', { signal })).tariffs,
    staleTime: 60_000,
  });
}
