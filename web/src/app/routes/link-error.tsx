import { LINK_ERROR_MESSAGES, type LinkErrorCode } from '@gpt/contracts';
import { Link, useSearchParams } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

const DEFAULT_MESSAGE = 'Произошла ошибка при связке аккаунтов.';

/** The text of a known refusal code, as a finished sentence; any other value shows the default (never the address's own text). */
function readMessage(code: string | null): string {
  if (!code || !Object.hasOwn(LINK_ERROR_MESSAGES, code)) return DEFAULT_MESSAGE;
  return `${LINK_ERROR_MESSAGES[code as LinkErrorCode]}.`;
}

export function LinkErrorPage() {
  usePageTitle('Ошибка связки аккаунтов');
  const [searchParams] = useSearchParams();
  const message = readMessage(searchParams.get('code'));
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
