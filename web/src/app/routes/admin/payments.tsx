import { AdminPaymentsScreen } from '@/features/admin-payments/components/admin-payments-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Платежи" lead="Оплаты картой (ЮKassa) и звёздами Telegram, их статусы и возвраты">
      <AdminPaymentsScreen />
    </AdminPage>
  );
}
