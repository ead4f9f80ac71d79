import { type ApiRoute, ok } from './api-route';
import { AdminReconciliationResponse } from './reconciliation';

/** The reconciliation `/api` routes, beside their schemas in `reconciliation.ts`; `routes.ts` puts every file's routes in one list (docs/architecture.md, Adding a route). */
export const reconciliationRoutes = [
  {
    id: 'getAdminReconciliation',
    method: 'get',
    path: '/api/admin/reconciliation',
    service: 'billing',
    access: 'admin',
    summary: 'Последняя сверка платежей и возвратов с ЮKassa и Telegram: расхождения (ничего не исправляется)',
    response: ok(AdminReconciliationResponse),
  },
  {
    id: 'postAdminReconciliation',
    method: 'post',
    path: '/api/admin/reconciliation',
    service: 'billing',
    access: 'admin',
    summary: 'Сверить сейчас: платежи и возвраты последних дней с ЮKassa и Telegram',
    response: ok(AdminReconciliationResponse),
    errors: [409],
  },
] as const satisfies readonly ApiRoute[];
