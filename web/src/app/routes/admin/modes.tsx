import { AdminModesScreen } from '@/features/admin-modes/components/admin-modes-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Режимы" lead="Режимы чата в боте: системный промпт, с которого начинается каждый запрос к модели">
      <AdminModesScreen />
    </AdminPage>
  );
}
