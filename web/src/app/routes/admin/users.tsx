import { AdminUsersScreen } from '@/features/admin-users/components/admin-users-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Пользователи" lead="Учётные записи, тарифы, балансы и источники переходов">
      <AdminUsersScreen />
    </AdminPage>
  );
}
