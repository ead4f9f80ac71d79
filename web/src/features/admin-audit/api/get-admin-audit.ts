import { AdminAuditResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';

export const adminAuditKey = ['admin-audit'] as const;

/** GET /api/admin/audit?page&limit&admin_id&user_id&action&from&to → { entries, total } */
export function getAdminAudit(query: Record<string, string | number>): Promise<AdminAuditResponse> {
  return callRoute('getAdminAudit', { query });
}

export const adminAuditQuery = (query: Record<string, string | number>) =>
  queryOptions({
    queryKey: [...adminAuditKey, query],
    queryFn: () => getAdminAudit(query),
    placeholderData: keepPreviousData,
  });

export function useAdminAudit(query: Record<string, string | number>) {
  return useQuery(adminAuditQuery(query));
}

/** GET /api/admin/audit/verify: each service's chain and the first broken entry. */
export function useAuditVerification() {
  return useQuery({
    queryKey: [...adminAuditKey, 'verify'],
    queryFn: () => callRoute('getAdminAuditVerify'),
  });
}

/** GET /api/admin/audit/export with the list's filters: CSV for Russian Excel. */
export const downloadAuditCsv = (query: Record<string, string | number>) =>
  downloadFile(apiPath('getAdminAuditExport'), query, 'audit.csv');
