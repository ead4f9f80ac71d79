import { Link } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

export function LinkSuccessPage() {
  usePageTitle('Аккаунты связаны');
  return (
    <PageContainer narrow>
      <div className="result-card result-card-success">
        <EmptyState
          titleAs="h1"
          icon="check"
          title="Аккаунты успешно связаны"
          actions={
            <>
              <Link to={paths.dashboard} className="btn btn-primary">
                Личный кабинет
              </Link>
              <Link to={paths.home} className="btn btn-outline-secondary">
                На главную
              </Link>
            </>
          }
        >
          Ваш Telegram-аккаунт теперь связан с аккаунтом на сайте: у них общий баланс кредитов и общие подписки.
        </EmptyState>
      </div>
    </PageContainer>
  );
}
