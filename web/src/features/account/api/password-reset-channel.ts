import type { PasswordResetChannel } from '@gpt/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

const channelKey = ['password-reset-channel'] as const;

/** GET /api/auth/profile/password-reset: whether reset links go to the linked Telegram account. */
export function usePasswordResetChannel(telegramId: number | null) {
  return useQuery({
    queryKey: [...channelKey, telegramId],
    queryFn: () => callRoute('getAuthProfilePasswordReset'),
    enabled: telegramId !== null,
  });
}

/** PUT /api/auth/profile/password-reset: reset links to the linked Telegram account, or back to the e-mail. */
export function useSetPasswordResetChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordResetChannel) => callRoute('putAuthProfilePasswordReset', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKey }),
  });
}
