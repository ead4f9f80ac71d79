import { AdminHistoryScreen } from '@/features/admin-history/components/admin-history-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="История" lead="Сообщения пользователей боту и ответы моделей">
      <AdminHistoryScreen />
    </AdminPage>
  );
}
