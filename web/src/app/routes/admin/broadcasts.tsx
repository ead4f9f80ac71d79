import { AdminBroadcastsScreen } from '@/features/admin-broadcasts/components/admin-broadcasts-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Рассылки" lead="Сообщение пользователям бота: всем или сегменту, сейчас или в назначенное время">
      <AdminBroadcastsScreen />
    </AdminPage>
  );
}
