import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

import { PageContainer } from '../layouts/page-container';

/** /forgot-password: asks for a recovery link. */
export function ForgotPasswordPage() {
  return (
    <PageContainer>
      <ForgotPasswordForm />
    </PageContainer>
  );
}
