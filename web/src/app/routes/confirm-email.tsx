import { useSearchParams } from 'react-router-dom';

import { EmailConfirmationResult } from '@/features/account/components/email-confirmation-result';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

/** /confirm-email?token=…: the page the confirmation mail's link opens. */
export function ConfirmEmailPage() {
  usePageTitle('Подтверждение e-mail');
  const [searchParams] = useSearchParams();
  return (
    <PageContainer narrow>
      <EmailConfirmationResult token={searchParams.get('token') ?? ''} />
    </PageContainer>
  );
}
