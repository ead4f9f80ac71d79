import { AdminSysValsScreen } from '@/features/admin-sysvals/components/admin-sysvals-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Настройки" lead="Системные параметры в формате ключ — значение: курс доллара, наценка и другие">
      <AdminSysValsScreen />
    </AdminPage>
  );
}
