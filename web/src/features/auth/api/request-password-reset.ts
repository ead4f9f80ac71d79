import { PasswordResetAccepted } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/auth/password-reset: the same answer whether the e-mail has an account or not. */
export function requestPasswordReset(email: string): Promise<PasswordResetAccepted> {
  return api.post(apiPath('postAuthPasswordReset'), PasswordResetAccepted, { email });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
