import { AdminTariffsScreen } from '@/features/admin-tariffs/components/admin-tariffs-screen';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Тарифы" lead="Тарифные планы: цена, курс кредитов и включённые кредиты">
      <AdminTariffsScreen />
    </AdminPage>
  );
}
