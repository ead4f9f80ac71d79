import { AdminSupportScreen } from '@/features/admin-support/components/admin-support-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage
      title="Обращения"
      lead="Сообщения из формы обратной связи: новые сверху. Ответ уходит в Telegram, если он связан с аккаунтом, иначе на e-mail."
    >
      <AdminSupportScreen />
    </AdminPage>
  );
}
