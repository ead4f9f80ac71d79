import { AdminPromoCodesScreen } from '@/features/admin-promo-codes/components/admin-promo-codes-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Промокоды" lead="Коды на кредиты или тариф: сколько раз, с какого и до какого дня">
      <AdminPromoCodesScreen />
    </AdminPage>
  );
}
