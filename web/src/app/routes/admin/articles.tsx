import { AdminArticlesScreen } from '@/features/admin-articles/components/admin-articles-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Статьи" lead="Публикации блога, их категории и теги">
      <AdminArticlesScreen />
    </AdminPage>
  );
}
