import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminBroadcastsKey } from './get-broadcasts';

export type Steer = 'pause' | 'resume' | 'cancel';

const ROUTES = {
  pause: 'postAdminBroadcastsByIdPause',
  resume: 'postAdminBroadcastsByIdResume',
  cancel: 'postAdminBroadcastsByIdCancel',
} as const;

/** Pause, resume or cancel a broadcast (each a state change the server refuses with 409 when it no longer fits). */
export function useSteerBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, steer }: { id: number; steer: Steer }) =>
      callRoute(ROUTES[steer], { params: { id }, headers: { 'Idempotency-Key': crypto.randomUUID() } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminBroadcastsKey }),
  });
}
