import { type QueryValue, routeCaller, withQuery } from '@gpt/contracts/client';

import { readStoredToken } from './session/session-storage';

export { AnswerMismatchError, type QueryValue, withQuery } from '@gpt/contracts/client';

/** Thrown for every failed call: the message is the body's `error` or 'Request failed'. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    /** The body's `code`, when the server sent one. */
    readonly code: string | null,
    /** True when the message came from the server's `error` field. */
    readonly fromServer: boolean,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const REQUEST_FAILED = 'Request failed';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a FormData goes as multipart/form-data (file uploads). */
  body?: unknown;
  /** Appended to the URL; null, undefined and '' are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * Sends a call (docs/product.md, Calls): JSON, or a FormData as multipart/form-data; `Authorization: Bearer`
 * when a token is stored; an ApiError carrying the body's `error` or 'Request failed' for a refusal.
 */
export async function apiSend(path: string, options: RequestOptions = {}): Promise<unknown> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...options.headers,
  };
  const token = readStoredToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (options.signal) init.signal = options.signal;
  if (options.body instanceof FormData) {
    init.body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(REQUEST_FAILED, 0, null, false);
  }

  const body = await readBody(response);
  if (!response.ok) {
    const error = field(body, 'error');
    const code = field(body, 'code');
    const fromServer = typeof error === 'string' && error.trim() !== '';
    throw new ApiError(
      fromServer ? error : REQUEST_FAILED,
      response.status,
      typeof code === 'string' ? code : null,
      fromServer,
      field(body, 'details'),
    );
  }
  return body;
}

/**
 * `callRoute` of the contracts over `origin` ('' in the app: the page's own): method, path and schemas come
 * from the route of the id, the body is checked with its schema (refused as the server would: an ApiError 400
 * with the schema's message), the answer where `__CHECK_API_ANSWERS__` is on.
 */
export function apiCaller(origin: string) {
  return routeCaller(
    ({ method, path, body, headers, signal }) => apiSend(`${origin}${path}`, { method, body, headers, signal }),
    {
      checkAnswers: __CHECK_API_ANSWERS__,
      invalidBody: (refusal) => new ApiError(refusal.error, 400, refusal.code, true, refusal.details),
    },
  );
}

/** `callRoute('getBillingBalance')`, `callRoute('postBillingPayments', { body })`: the one way web modules call the API. */
export const callRoute = apiCaller('');

/** The server's message when it sent one, else the given fallback (docs/product.md, Errors default texts). */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.fromServer ? err.message : fallback;
}
