import { EmailConfirmationResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';
import { refreshSession } from '@/lib/session/session';

/** POST /api/auth/email-confirmation (bearer): one more confirmation mail, or the Russian refusal (429, 409). */
export function resendEmailConfirmation(): Promise<EmailConfirmationResponse> {
  return callRoute('postAuthEmailConfirmation');
}

export function useResendEmailConfirmation() {
  return useMutation({ mutationFn: resendEmailConfirmation });
}

/** POST /api/auth/email-confirmation/confirm: the mailed link's token; a second visit is the same success. */
export function confirmEmail(token: string): Promise<EmailConfirmationResponse> {
  return callRoute('postAuthEmailConfirmationConfirm', { body: { token } });
}

/** A signed-in visitor's profile is read again: it is confirmed now, and the welcome credits follow. */
export function useConfirmEmail() {
  return useMutation({
    mutationFn: confirmEmail,
    onSuccess: () => refreshSession().catch(() => undefined),
  });
}
