import { type z } from 'zod';
import { type ApiRoute, type HttpMethod } from './api-route';
import { type ApiRouteId, type ApiRouteOf, apiPath, apiRoute, type PathParamNames } from './routes';

/**
 * A typed client of the route list: `callRoute(id, { params, query, body, headers })` takes the method,
 * the path and the schemas from the route of that id, so a caller spells none of them and a route renamed
 * in the contracts breaks the compile at every caller (docs/architecture.md, Contracts). How the request
 * travels (base address, keys, errors) is the caller's `RouteTransport`.
 */

/** A value of a query string; null, undefined and '' are left out. */
export type QueryValue = string | number | boolean | null | undefined;

type Route<Id extends ApiRouteId> = ApiRouteOf<Id>;
type BodyOf<Id extends ApiRouteId> =
  | (Route<Id> extends { body: infer S extends z.ZodType } ? z.input<S> : never)
  | (Route<Id> extends { multipart: z.ZodType } ? FormData : never);
type QueryOf<Id extends ApiRouteId> =
  Route<Id> extends { query: infer S extends z.ZodType } ? z.input<S> & Record<string, QueryValue> : never;

/** What a route answers: the output of its response schema, nothing for an answer without one. */
export type RouteAnswer<Id extends ApiRouteId> = Route<Id>['response'] extends { schema: infer S extends z.ZodType }
  ? z.output<S>
  : void;

/** The input of a call: `params` when the path has any, `body` when the route takes one, `query` when it reads one. */
export type RouteInput<Id extends ApiRouteId> = ([PathParamNames<Route<Id>['path']>] extends [never]
  ? { params?: never }
  : { params: Record<PathParamNames<Route<Id>['path']>, string | number> }) &
  ([BodyOf<Id>] extends [never] ? { body?: never } : { body: BodyOf<Id> }) &
  ([QueryOf<Id>] extends [never] ? { query?: never } : { query?: QueryOf<Id> }) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

type InputArgs<Id extends ApiRouteId> =
  object extends RouteInput<Id> ? [input?: RouteInput<Id>] : [input: RouteInput<Id>];

/** One request as the transport sends it. */
export interface RouteRequest {
  route: ApiRoute;
  method: Uppercase<HttpMethod>;
  /** The path with its parameters filled in and its query appended. */
  path: string;
  /** JSON, or a FormData for a multipart route. */
  body?: unknown;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends a request and resolves with the answer's body (JSON parsed); throws the caller's own error for a refusal. */
export type RouteTransport = (request: RouteRequest) => Promise<unknown>;

/** Thrown where answers are checked when one does not match its route's response schema. */
export class AnswerMismatchError extends Error {
  override readonly name = 'AnswerMismatchError';
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

/**
 * Checks an answer against a schema where `check` is on; the answer is returned as it came in both
 * cases, so what the tests see is what production gets.
 */
function checkedAnswer<S extends z.ZodType>(check: boolean, schema: S, body: unknown, route: string): z.output<S> {
  if (check) {
    const result = schema.safeParse(body);
    if (!result.success) {
      const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
      throw new AnswerMismatchError(`${route}: the answer does not match its contract schema — ${problems.join('; ')}`);
    }
  }
  return body as z.output<S>;
}

/** A body refused before it leaves, as a service answers it (400 `validation_error`, kit's `errorBody`). */
export interface BodyRefusal {
  error: string;
  code: 'validation_error';
  details: { path: string; message: string }[];
}

export interface RouteCallerOptions {
  /** Check every answer against its route's response schema (outside production: `CHECK_API_ANSWERS`). */
  checkAnswers: boolean;
  /** The caller's error for a body its route's schema refuses, as it would read the service's 400. */
  invalidBody: (refusal: BodyRefusal, route: ApiRoute) => Error;
}

/** `callRoute` over a transport: the body checked with the route's schema before it leaves. */
export function routeCaller(transport: RouteTransport, options: RouteCallerOptions) {
  return async function callRoute<Id extends ApiRouteId>(id: Id, ...[input]: InputArgs<Id>): Promise<RouteAnswer<Id>> {
    const route: ApiRoute = apiRoute(id);
    const {
      params,
      query,
      body,
      headers = {},
      signal,
    } = (input ?? {}) as {
      params?: Record<string, string | number>;
      query?: Record<string, QueryValue>;
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    };
    if (route.body && !(body instanceof FormData)) {
      // What the service will parse: the body as JSON carries it.
      const checked = route.body.safeParse(body === undefined ? undefined : JSON.parse(JSON.stringify(body)));
      if (!checked.success) {
        const details = checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
        const refusal: BodyRefusal = {
          error: details[0]?.message ?? 'Некорректные данные',
          code: 'validation_error',
          details,
        };
        throw options.invalidBody(refusal, route);
      }
    }
    const path = withQuery((apiPath as (id: string, params?: object) => string)(id, params), query);
    const method = route.method.toUpperCase() as Uppercase<HttpMethod>;
    const answer = await transport({ route, method, path, body, headers, signal });
    if (!route.response.schema || (route.response.contentType ?? 'application/json') !== 'application/json') {
      return answer as RouteAnswer<Id>;
    }
    return checkedAnswer(
      options.checkAnswers,
      route.response.schema,
      answer,
      `${method} ${route.path}`,
    ) as RouteAnswer<Id>;
  };
}

export type CallRoute = ReturnType<typeof routeCaller>;
