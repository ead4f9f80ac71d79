import { ApiError, REQUEST_FAILED, withQuery } from './api-client';
import { readStoredToken } from './session/session-storage';

/**
 * An admin export (GET with the list's filters and the stored token): the browser saves the answer under the
 * server's file name (`Content-Disposition`), else `fallbackName`; a refusal throws an ApiError with its message.
 */
export async function downloadFile(
  path: string,
  query: Record<string, string | number>,
  fallbackName: string,
): Promise<void> {
  const token = readStoredToken();
  const response = await fetch(withQuery(path, query), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    const error = typeof body?.error === 'string' ? body.error : null;
    throw new ApiError(error ?? REQUEST_FAILED, response.status, null, error !== null);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has started from the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
