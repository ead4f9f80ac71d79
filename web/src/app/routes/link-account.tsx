import { LINK_ERROR_MESSAGES, type LinkPreviewResponse } from '@gpt/contracts';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';

import { BusyButton } from '@/components/ui/busy-button';
import { Icon } from '@/components/ui/icons';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { paths, withLinkToken } from '@/config/paths';
import { useLinkAccount } from '@/features/account-link/api/link-account';
import { useLinkPreview } from '@/features/account-link/api/preview-link';
import { ApiError } from '@/lib/api-client';
import { refreshSession, useSession } from '@/lib/session/session';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

/** /link-error names a refusal by its code only; anything else shows the page's own default text. */
function linkErrorPath(err: unknown): string {
  const code = err instanceof ApiError && err.code && err.code in LINK_ERROR_MESSAGES ? err.code : null;
  return code ? `${paths.linkError}?${new URLSearchParams({ code }).toString()}` : paths.linkError;
}

function TelegramAccount({ telegram }: { telegram: LinkPreviewResponse['telegram'] }) {
  const name = [telegram.first_name, telegram.last_name].filter(Boolean).join(' ');
  return (
    <div className="d-flex align-items-center gap-3 p-3 border rounded mb-3" data-testid="link-telegram-account">
      {telegram.photo ? (
        <img
          src={telegram.photo}
          alt={`Фото профиля Telegram${name ? `: ${name}` : ''}`}
          width={64}
          height={64}
          className="rounded-circle flex-shrink-0 object-fit-cover"
          data-testid="link-telegram-photo"
        />
      ) : (
        <span className="rounded-circle bg-primary-subtle text-primary d-inline-flex p-2" aria-hidden>
          <Icon name="send" size={24} />
        </span>
      )}
      <div className="text-break">
        <div className="fw-semibold">{name || 'Без имени'}</div>
        <div className="text-body-secondary">{telegram.username ? `@${telegram.username}` : 'без @username'}</div>
      </div>
    </div>
  );
}

/**
 * /link/:token — signed out: to /login carrying the token (login and sign-up come back here); signed
 * in: shows whose Telegram account asks to be linked, and links only when «Связать» is pressed, then
 * goes to /link-success or /link-error?code=<code> (docs/security.md, Linking).
 */
export function LinkAccountPage() {
  usePageTitle('Связка аккаунтов');
  const { token: linkToken = '' } = useParams();
  const { token, user } = useSession();
  const navigate = useNavigate();
  const preview = useLinkPreview(linkToken, Boolean(token));
  const link = useLinkAccount();

  if (!token) return <Navigate to={withLinkToken(paths.login, linkToken)} replace />;
  if (preview.isError) return <Navigate to={linkErrorPath(preview.error)} replace />;

  const confirm = () =>
    link.mutate(linkToken, {
      onSuccess: () => {
        refreshSession().catch((err: unknown) => console.error('Profile reload after linking failed', err));
        navigate(paths.linkSuccess, { replace: true });
      },
      onError: (err) => navigate(linkErrorPath(err), { replace: true }),
    });

  return (
    <PageContainer narrow>
      <Card className="result-card">
        <Card.Body className="p-4">
          <h1 className="h4 mb-3">Связать аккаунт с Telegram?</h1>
          {preview.data ? (
            <>
              <p className="text-break">Этот аккаунт Telegram просит связать его с вашим аккаунтом {user?.email}:</p>
              <TelegramAccount telegram={preview.data.telegram} />
              <Alert variant="warning" className="small">
                После связки бот будет тратить кредиты вашего аккаунта. Связывайте только свой Telegram: если ссылку
                прислал кто-то другой, нажмите «Отмена».
              </Alert>
              <div className="d-flex flex-wrap gap-2">
                <BusyButton variant="primary" busy={link.isPending} onClick={confirm}>
                  Связать
                </BusyButton>
                <Link to={paths.dashboard} className="btn btn-outline-secondary">
                  Отмена
                </Link>
              </div>
            </>
          ) : (
            <SpinnerBlock label="Проверяем ссылку…" />
          )}
        </Card.Body>
      </Card>
    </PageContainer>
  );
}
