import { useEffect, useRef } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';

import { SpinnerBlock } from '@/components/ui/spinner-block';
import { paths, withLinkToken } from '@/config/paths';
import { useLinkAccount } from '@/features/account-link/api/link-account';
import { errorMessage } from '@/lib/api-client';
import { refreshSession, useSession } from '@/lib/session/session';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

/**
 * /link/:token — signed out: to /login carrying the token; signed in: links the accounts and
 * goes to /link-success or /link-error?error=<message>.
 */
export function LinkAccountPage() {
  usePageTitle('Связка аккаунтов');
  const { token: linkToken = '' } = useParams();
  const { token } = useSession();
  const navigate = useNavigate();
  const { mutate } = useLinkAccount();
  const started = useRef(false);

  useEffect(() => {
    if (!token || !linkToken || started.current) return;
    started.current = true;
    mutate(linkToken, {
      onSuccess: () => {
        refreshSession().catch((err: unknown) => console.error('Profile reload after linking failed', err));
        navigate(paths.linkSuccess, { replace: true });
      },
      onError: (err) => {
        const message = errorMessage(err, 'Произошла ошибка при связке аккаунтов.');
        navigate(`${paths.linkError}?${new URLSearchParams({ error: message }).toString()}`, { replace: true });
      },
    });
  }, [token, linkToken, mutate, navigate]);

  if (!token) return <Navigate to={withLinkToken(paths.login, linkToken)} replace />;
  return (
    <PageContainer narrow>
      <h1 className="visually-hidden">Связка аккаунтов</h1>
      <SpinnerBlock label="Связываем аккаунты…" />
      <p className="text-center text-body-secondary">Связываем аккаунт сайта с Telegram…</p>
    </PageContainer>
  );
}
