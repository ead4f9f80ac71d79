import { AdminSubscriptionsScreen } from '@/features/admin-subscriptions/components/admin-subscriptions-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Подписки" lead="Тарифы, которые продлеваются сами: картой (ЮKassa) и звёздами Telegram">
      <AdminSubscriptionsScreen />
    </AdminPage>
  );
}
