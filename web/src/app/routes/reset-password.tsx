import { useParams } from 'react-router-dom';

import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

import { PageContainer } from '../layouts/page-container';

/** /reset-password/{token}: the page a recovery link opens. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  return (
    <PageContainer>
      <ResetPasswordForm token={token} />
    </PageContainer>
  );
}
