import { assertOutsideTransaction } from '../db/transaction-guard';

/**
 * `fetch` for calls to our other services. In development and tests it throws when called inside
 * a database transaction, naming where the transaction began: in the embedded default every
 * service shares one database session, so such a call would hold them all until it timed out.
 */
export function serviceFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  assertOutsideTransaction(`${init.method ?? 'GET'} ${String(url)}`);
  return fetch(url, init);
}
