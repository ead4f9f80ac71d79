import type { z } from 'zod';

import { readStoredToken } from './session/session-storage';

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

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a FormData goes as multipart/form-data (file uploads). */
  body?: unknown;
  /** Appended to the URL; null, undefined and '' are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Builds `path?query`, leaving out empty values. */
export function withQuery(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
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

/** Thrown in development and tests when an answer does not match the route's contract schema. */
export class AnswerMismatchError extends Error {
  override readonly name = 'AnswerMismatchError';
}

/**
 * Checks an answer against its contract schema where `__CHECK_API_ANSWERS__` is on (the dev server, the
 * test build, unit tests); a production build only casts (docs/architecture.md, Web app). The answer is
 * returned as it came in both cases, so what the tests see is what production gets.
 */
function checked<S extends z.ZodType>(schema: S, body: unknown, route: string): z.infer<S> {
  if (__CHECK_API_ANSWERS__) {
    const result = schema.safeParse(body);
    if (!result.success) {
      const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
      throw new AnswerMismatchError(`${route}: the answer does not match its contract schema — ${problems.join('; ')}`);
    }
  }
  return body as z.infer<S>;
}

/**
 * The one way the web app calls the API (docs/product.md, Calls): sends JSON, adds `Authorization: Bearer`
 * when a token is stored, throws an ApiError carrying the body's `error` or 'Request failed', and types the
 * answer by the route's contract schema (checked against it outside production).
 */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
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
  return checked(schema, body, `${method} ${path.split('?')[0]}`);
}

type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

/** `api.get(apiPath('getTariffs'), PublicTariffsResponse)`: each call names the contract schema of its answer. */
export const api = {
  get: <S extends z.ZodType>(path: string, schema: S, options?: CallOptions) =>
    apiRequest(path, schema, { ...options, method: 'GET' }),
  post: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: CallOptions) =>
    apiRequest(path, schema, { ...options, method: 'POST', body }),
  put: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: CallOptions) =>
    apiRequest(path, schema, { ...options, method: 'PUT', body }),
  delete: <S extends z.ZodType>(path: string, schema: S, options?: CallOptions) =>
    apiRequest(path, schema, { ...options, method: 'DELETE' }),
};

/** The server's message when it sent one, else the given fallback (docs/product.md, Errors default texts). */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.fromServer ? err.message : fallback;
}
