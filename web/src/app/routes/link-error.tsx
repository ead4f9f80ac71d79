import { Link, useSearchParams } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

const DEFAULT_MESSAGE = 'Произошла ошибка при связке аккаунтов.';

/** The `error` query value, decoded once more in case it arrived double-encoded, as a finished sentence. */
function readMessage(raw: string | null): string {
  if (!raw || !raw.trim()) return DEFAULT_MESSAGE;
  let message = raw.trim();
  try {
    message = decodeURIComponent(message);
  } catch {
    // Not an escaped value: shown as it came.
  }
  return /[.!?…]$/.test(message) ? message : `${message}.`;
}

export function LinkErrorPage() {
  usePageTitle('Ошибка связки аккаунтов');
  const [searchParams] = useSearchParams();
  const message = readMessage(searchParams.get('error'));
  const { token } = useSession();
  return (
    <PageContainer narrow>
      <div className="result-card result-card-error">
        <EmptyState
          titleAs="h1"
          icon="alert"
          title="Не удалось связать аккаунты"
          actions={
            <>
              {/* Signed in, the way on is the personal account (it links again); else sign in or up (docs/product.md, Screens). */}
              {token ? (
                <Link to={paths.dashboard} className="btn btn-primary">
                  Личный кабинет
                </Link>
              ) : (
                <>
                  <Link to={paths.login} className="btn btn-primary">
                    Войти
                  </Link>
                  <Link to={paths.register} className="btn btn-outline-primary">
                    Регистрация
                  </Link>
                </>
              )}
              <Link to={paths.home} className="btn btn-outline-secondary">
                На главную
              </Link>
            </>
          }
        >
          <span role="alert">{message}</span>
        </EmptyState>
      </div>
    </PageContainer>
  );
}
