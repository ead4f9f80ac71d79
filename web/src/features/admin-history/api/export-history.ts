import { apiPath } from '@gpt/contracts/routes';

import { ApiError, REQUEST_FAILED, withQuery } from '@/lib/api-client';
import { readStoredToken } from '@/lib/session/session-storage';

/**
 * GET /api/admin/history/export with the list's filters and sort: the server streams the CSV;
 * the browser saves it under the server's file name.
 */
export async function downloadHistoryCsv(query: Record<string, string | number>): Promise<void> {
  const token = readStoredToken();
  const response = await fetch(withQuery(apiPath('getAdminHistoryExport'), query), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    const error = typeof body?.error === 'string' ? body.error : null;
    throw new ApiError(error ?? REQUEST_FAILED, response.status, null, error !== null);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'history.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has started from the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
