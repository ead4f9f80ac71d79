import type { ServerResponse } from 'node:http';
import { errorBody } from '@gpt/kit';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers with a JSON body; headers set earlier on `res` (request id, security) stay. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', payload.length);
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  res.end(res.req.method === 'HEAD' ? undefined : payload);
}

/** The error body of the whole product: `{ error, code }`. */
export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: message, code });
}

/** Answers an AppError (or anything, masked) through the kit's single error mapping. */
export function sendAppError(res: ServerResponse, err: unknown): void {
  const mapped = errorBody(err);
  sendJson(res, mapped.status, mapped.body, mapped.headers);
}
