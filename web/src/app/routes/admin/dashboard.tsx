import { StatsOverview } from '@/features/admin-stats/components/stats-overview';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Дашборд" lead="Состояние сервиса и ключевые показатели; обновляется каждые 10 секунд">
      <StatsOverview />
    </AdminPage>
  );
}
