import { AuditChainLine } from '@/features/admin-audit/components/audit-chain-line';
import { StatsOverview } from '@/features/admin-stats/components/stats-overview';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Дашборд" lead="Состояние сервиса и ключевые показатели; обновляется каждые 10 секунд">
      <AuditChainLine />
      <StatsOverview />
    </AdminPage>
  );
}
