import { Link } from 'react-router-dom';

import { usePageTitle } from '@/lib/use-page-title';
import { paths } from '@/config/paths';

import { PageContainer } from '../layouts/page-container';

export function NotFoundPage() {
  usePageTitle('Страница не найдена');
  return (
    <PageContainer narrow>
      <div className="not-found text-center py-5">
        <div className="not-found-code" aria-hidden>
          404
        </div>
        <h1 className="h2 mb-3">Страница не найдена</h1>
        <p className="text-body-secondary mb-4">Возможно, она была удалена или вы перешли по неверной ссылке.</p>
        <Link to={paths.home} className="btn btn-primary btn-lg">
          На главную
        </Link>
      </div>
    </PageContainer>
  );
}
