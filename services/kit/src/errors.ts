import { z } from 'zod';
import { isDatabaseUnavailable } from './db/errors';

/**
 * An error whose message is meant for the person using the product; its status and code go to the client as is.
 * Arguments in the order of the factories below: the sentence first, then the code, then the status.
 */
export class AppError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'bad_request', details?: unknown) =>
  new AppError(message, code, 400, details);
export const unauthorized = (message = 'Требуется авторизация', code = 'unauthorized') =>
  new AppError(message, code, 401);
export const forbidden = (message = 'Недостаточно прав', code = 'forbidden') => new AppError(message, code, 403);
export const notFound = (message = 'Не найдено', code = 'not_found') => new AppError(message, code, 404);
export const conflict = (message: string, code = 'conflict') => new AppError(message, code, 409);
export const payloadTooLarge = (message = 'Слишком большой запрос') => new AppError(message, 'payload_too_large', 413);
export const tooManyRequests = (message: string, retryAfterSec: number) =>
  new AppError(message, 'rate_limited', 429, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSec))),
  });
export const serviceUnavailable = (message = 'Сервис временно недоступен', code = 'service_unavailable') =>
  new AppError(message, code, 503);

export interface ErrorBody {
  error: string;
  code: string;
  details?: unknown;
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** body-parser and other http-errors style failures carry `type` and `status`. */
interface HttpLibraryError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

const libraryErrors: Record<string, MappedError> = {
  'entity.too.large': { status: 413, body: { error: 'Слишком большой запрос', code: 'payload_too_large' } },
  'entity.parse.failed': { status: 400, body: { error: 'Некорректный JSON в теле запроса', code: 'invalid_json' } },
  'encoding.unsupported': { status: 415, body: { error: 'Неподдерживаемая кодировка', code: 'unsupported_encoding' } },
  'charset.unsupported': { status: 415, body: { error: 'Неподдерживаемая кодировка', code: 'unsupported_encoding' } },
};

const internalError: MappedError = {
  status: 500,
  body: { error: 'Внутренняя ошибка сервера', code: 'internal_error' },
};

/** The one mapping from anything thrown to an HTTP answer; unknown errors are masked. */
export function errorBody(err: unknown): MappedError {
  if (err instanceof AppError) {
    const body: ErrorBody = { error: err.message, code: err.code };
    if (err.details !== undefined) body.details = err.details;
    return { status: err.status, body, headers: err.headers };
  }
  if (err instanceof z.ZodError) {
    const details = err.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    return {
      status: 400,
      body: { error: details[0]?.message ?? 'Некорректные данные', code: 'validation_error', details },
    };
  }
  if (typeof err === 'object' && err !== null) {
    const lib = err as HttpLibraryError;
    if (lib.type && libraryErrors[lib.type]) return libraryErrors[lib.type]!;
    const status = lib.status ?? lib.statusCode;
    if (lib.expose && status && status >= 400 && status < 500) {
      return { status, body: { error: 'Некорректный запрос', code: 'bad_request' } };
    }
  }
  // The database restarting or out of reach is an outage to wait out, not a fault of the request.
  if (isDatabaseUnavailable(err)) return errorBody(serviceUnavailable());
  return internalError;
}
