import { AuditChainLine } from '@/features/admin-audit/components/audit-chain-line';
import { ReconciliationPanel } from '@/features/admin-reconciliation/components/reconciliation-panel';
import { StatsOverview } from '@/features/admin-stats/components/stats-overview';

import { AdminPage } from './admin-page';

export function Component() {
  return (
    <AdminPage title="Дашборд" lead="Состояние сервиса и ключевые показатели; обновляется каждые 10 секунд">
      <AuditChainLine />
      <ReconciliationPanel />
      <StatsOverview />
    </AdminPage>
  );
}
