import { type z } from 'zod';
import { type ServiceName, SuccessResponse } from './common';

/**
 * What an `/api` route declares, and the answer helpers the `*.routes.ts` files share; `routes.ts` puts
 * those files' routes in one list (docs/architecture.md, Contracts).
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route: `public` anyone; `user` any valid JWT; `admin` a JWT of an admin;
 * `bot` the `X-Bot-Key` header; `webhook` anyone, believed only after the provider check.
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'bot' | 'webhook';

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

type ParamsSchema = z.ZodObject | z.ZodPipe;

export interface ApiRoute {
  /** The route's name: its OpenAPI operationId and the key a service implements it under (`contractRouter`). */
  id: string;
  method: HttpMethod;
  /** OpenAPI style path (`/api/admin/users/{id}`); see `toExpressPath`. */
  path: string;
  service: ServiceName;
  access: RouteAccess;
  summary: string;
  description?: string;
  params?: ParamsSchema;
  query?: ParamsSchema;
  body?: z.ZodType;
  /** The body may also come as multipart/form-data (file uploads). */
  multipart?: z.ZodType;
  response: {
    status: 200 | 201 | 202 | 204;
    description: string;
    /** JSON unless `contentType` says otherwise. */
    schema?: z.ZodType;
    contentType?: string;
  };
  /** Error answers beyond those implied by access and input (401/403/400). */
  errors?: readonly ErrorStatus[];
  /**
   * An admin action on money, access or a price: it takes an `Idempotency-Key` header, and a retry with
   * the key gets the first answer again without a second change (docs/money.md, Admin actions).
   */
  idempotent?: true;
}

export const ok = <S extends z.ZodType>(schema: S, description = 'OK') => ({
  status: 200 as const,
  schema,
  description,
});
export const created = <S extends z.ZodType>(schema: S, description = 'Created') => ({
  status: 201 as const,
  schema,
  description,
});
export const deleted = ok(SuccessResponse, 'Deleted');
