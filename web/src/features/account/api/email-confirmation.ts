import type { EmailConfirmationResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { useSessionActions } from '@/lib/session/use-session';

/** POST /api/auth/email-confirmation (bearer): one more confirmation mail, or the Russian refusal (429, 409). */
export function resendEmailConfirmation(): Promise<EmailConfirmationResponse> {
  return api.post<EmailConfirmationResponse>('/api/auth/email-confirmation');
}

export function useResendEmailConfirmation() {
  return useMutation({ mutationFn: resendEmailConfirmation });
}

/** POST /api/auth/email-confirmation/confirm: the mailed link's token; a second visit is the same success. */
export function confirmEmail(token: string): Promise<EmailConfirmationResponse> {
  return api.post<EmailConfirmationResponse>('/api/auth/email-confirmation/confirm', { token });
}

/** A signed-in visitor's profile is read again: it is confirmed now, and the welcome credits follow. */
export function useConfirmEmail() {
  const { fetchProfile } = useSessionActions();
  return useMutation({
    mutationFn: confirmEmail,
    onSuccess: () => fetchProfile().catch(() => undefined),
  });
}
