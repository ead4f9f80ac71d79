import { AdminModelsScreen } from '@/features/admin-models/components/admin-models-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Модели" lead="Модели ИИ и их цены в долларах за 1 млн токенов">
      <AdminModelsScreen />
    </AdminPage>
  );
}
