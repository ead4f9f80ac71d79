import { AdminPaymentsScreen } from '@/features/admin-payments/components/admin-payments-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Платежи" lead="Оплаты картой через ЮKassa и их статусы">
      <AdminPaymentsScreen />
    </AdminPage>
  );
}
