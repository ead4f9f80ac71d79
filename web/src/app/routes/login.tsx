import { useSearchParams } from 'react-router-dom';

import { LoginForm } from '@/features/auth/components/login-form';

import { PageContainer } from '../layouts/page-container';

/** /login, optionally with ?link_token= to link a Telegram account after signing in. */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  return (
    <PageContainer>
      <LoginForm linkToken={searchParams.get('link_token')} />
    </PageContainer>
  );
}
