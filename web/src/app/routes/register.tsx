import { useParams, useSearchParams } from 'react-router-dom';

import { RegisterForm } from '@/features/auth/components/register-form';

import { PageContainer } from '../layouts/page-container';

/** /register and /register/:token: the link token comes from the route or from ?link_token=. */
export function RegisterPage() {
  const { token } = useParams();
  const [searchParams] = useSearchParams();
  return (
    <PageContainer>
      <RegisterForm linkToken={token ?? searchParams.get('link_token')} />
    </PageContainer>
  );
}
