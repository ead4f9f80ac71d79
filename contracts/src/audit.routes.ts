import { z } from 'zod';
import { type ApiRoute, ok } from './api-route';
import { AdminAuditExportQuery, AdminAuditQuery, AdminAuditResponse, AuditVerifyResponse } from './audit';

/** The audit-log `/api` routes, beside their schemas in `audit.ts`; `routes.ts` puts every file's routes in one list (docs/architecture.md, Adding a route). */
export const auditRoutes = [
  {
    id: 'getAdminAudit',
    method: 'get',
    path: '/api/admin/audit',
    service: 'metrics',
    access: 'admin',
    summary:
      'Журнал действий: записи всех сервисов, новые первыми (фильтры: администратор, пользователь, действие, даты)',
    query: AdminAuditQuery,
    response: ok(AdminAuditResponse),
    errors: [503],
  },
  {
    id: 'getAdminAuditVerify',
    method: 'get',
    path: '/api/admin/audit/verify',
    service: 'metrics',
    access: 'admin',
    summary: 'Проверка цепочки хешей журнала действий: первая запись, где цепочка нарушена',
    response: ok(AuditVerifyResponse),
    errors: [503],
  },
  {
    id: 'getAdminAuditExport',
    method: 'get',
    path: '/api/admin/audit/export',
    service: 'metrics',
    access: 'admin',
    summary: 'Выгрузка журнала действий в CSV для русского Excel («;», московское время)',
    query: AdminAuditExportQuery,
    response: {
      status: 200,
      description: 'CSV, UTF-8 с BOM',
      schema: z.string(),
      contentType: 'text/csv',
    },
    errors: [503],
  },
] as const satisfies readonly ApiRoute[];
