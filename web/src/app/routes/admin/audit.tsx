import { AdminAuditScreen } from '@/features/admin-audit/components/admin-audit-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage
      title="Журнал действий"
      lead="Кто, когда и почему менял деньги, доступы и цены; платежи и возвраты системы"
    >
      <AdminAuditScreen />
    </AdminPage>
  );
}
