import { apiPath } from '@gpt/contracts/routes';

import { downloadFile } from '@/lib/download-file';

/**
 * GET /api/admin/history/export with the list's filters and sort: the server streams the CSV;
 * the browser saves it under the server's file name.
 */
export const downloadHistoryCsv = (query: Record<string, string | number>) =>
  downloadFile(apiPath('getAdminHistoryExport'), query, 'history.csv');
