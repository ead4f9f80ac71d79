import { UnlinkTelegramResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';
import { refreshSession } from '@/lib/session/session';

/** DELETE /api/auth/link: the site account lets go of its Telegram account (what was merged stays here). */
export function unlinkTelegram(): Promise<UnlinkTelegramResponse> {
  return callRoute('deleteAuthLink');
}

/** On success the profile is read again: the account shows as not linked. */
export function useUnlinkTelegram() {
  return useMutation({
    mutationFn: unlinkTelegram,
    onSuccess: () => refreshSession().catch(() => undefined),
  });
}
