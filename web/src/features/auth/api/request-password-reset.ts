import { PasswordResetAccepted } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/auth/password-reset: the same answer whether the e-mail has an account or not. */
export function requestPasswordReset(email: string): Promise<PasswordResetAccepted> {
  return callRoute('postAuthPasswordReset', { body: { email } });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
