import { Link, useSearchParams } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

const DEFAULT_MESSAGE = 'Произошла ошибка при связке аккаунтов.';

/** The `error` query value, decoded once more in case it arrived double-encoded. */
function readMessage(raw: string | null): string {
  if (!raw || !raw.trim()) return DEFAULT_MESSAGE;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function LinkErrorPage() {
  usePageTitle('Ошибка связки аккаунтов');
  const [searchParams] = useSearchParams();
  const message = readMessage(searchParams.get('error'));
  return (
    <PageContainer narrow>
      <div className="result-card result-card-error">
        <EmptyState
          titleAs="h1"
          icon="alert"
          title="Не удалось связать аккаунты"
          actions={
            <>
              <Link to={paths.login} className="btn btn-primary">
                Войти
              </Link>
              <Link to={paths.register} className="btn btn-outline-primary">
                Регистрация
              </Link>
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
