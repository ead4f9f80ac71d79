import type { ServiceName } from '@gpt/contracts';
import {
  type ApiRoute,
  type ApiRouteId,
  type ApiRouteOf,
  apiRoutes,
  type ServiceRoute,
  toExpressPath,
} from '@gpt/contracts/openapi';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { z } from 'zod';
import type { AccessClaims } from '../auth/jwt';
import type { KeyValue } from '../kv';
import { requireAuth, requireBotKey } from './auth';
import { clientAddress } from './client-address';
import { type AdminAction, type IdempotencyStore, Replayed } from './idempotency';
import { respond, validate } from './validate';

/**
 * What a handler returns when it wrote the answer itself: a stream, a file, an answer with an ETag
 * (`sendAnswer`), a redirect. Every other handler returns the body and `contractRouter` sends it.
 */
export class Answered {
  private readonly written = true;
}
export const answered = new Answered();

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler of the route gets: its input checked against the route's schemas, and the request itself. */
export interface RouteInput<R extends ApiRoute> {
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  /** A route that may take multipart/form-data reads its body itself (`readImageMultipart`). */
  body: R extends { multipart: z.ZodType } ? undefined : Parsed<R['body']>;
  /** The verified token of a `user` or `admin` route. */
  claims: R['access'] extends 'user' | 'admin' ? AccessClaims : undefined;
  /** An `idempotent` route's key: its action id and where its use case keeps the answer (docs/money.md). */
  action: R extends { idempotent: true } ? AdminAction : undefined;
  req: Request;
  res: Response;
}

/** A JSON route answers its response schema's input; a route of another content type writes `res` itself. */
export type RouteResult<R extends ApiRoute> = R['response'] extends { contentType: string }
  ? Answered
  : R['response'] extends { schema: infer S extends z.ZodType }
    ? z.input<S> | Answered
    : void | Answered;

export type RouteHandle<R extends ApiRoute> = (input: RouteInput<R>) => RouteResult<R> | Promise<RouteResult<R>>;

/** A handler with what runs before it: uploads, rate limits, the provider's address check of a webhook. */
export interface RouteHandlerSpec<R extends ApiRoute> {
  /** Middlewares after the access check, before the input is validated. */
  use?: RequestHandler[];
  /** The error for path parameters the route's schema refuses, when that is not a 400 (an image not found). */
  invalidParams?: () => Error;
  /** Where an `idempotent` route keeps its answers (`idempotencyStore`); required by such a route. */
  idempotency?: IdempotencyStore;
  handle: RouteHandle<R>;
}

/**
 * In place of a handler: this instance does not serve the route (a sandbox's routes where the sandbox
 * is off); it answers 404 like any unknown path.
 */
export class NotServed {
  private readonly off = true;
}
export const notServed = new NotServed();

export type RouteHandler<R extends ApiRoute> = RouteHandle<R> | RouteHandlerSpec<R> | NotServed;

/** The handlers of a service's routes (all of them, or a part with `routeHandlers`), by route id. */
export type RouteHandlers<S extends ServiceName> = HandlersOf<ServiceRoute<S>['id']>;
type HandlersOf<Ids extends ApiRouteId> = { [Id in Ids]: RouteHandler<ApiRouteOf<Id>> };

/** What the access checks need: the JWT secret and token versions, the bot's key for `bot` routes. */
export interface RouteGuards {
  jwtSecret: string;
  kv: KeyValue;
  botApiKey?: string;
}

/** Types a part of a service's handlers (one file's share) against the service's routes. */
export function routeHandlers<S extends ServiceName, K extends ServiceRoute<S>['id']>(
  _service: S,
  handlers: HandlersOf<K>,
): HandlersOf<K> {
  return handlers;
}

/**
 * The service's `/api` routes, built from the contracts' route list (docs/architecture.md, Adding a route):
 * each route at its contract path with the access check of its `access`, its params, query and body
 * validated with its schemas, and the handler's result sent with `respond` against its response schema.
 * A handler for every route of the service and for no other: missing or extra ones are type errors and
 * refuse to start.
 */
export function contractRouter<S extends ServiceName>(
  service: S,
  guards: RouteGuards,
  handlers: RouteHandlers<S>,
): Router {
  const routes: readonly ApiRoute[] = apiRoutes.filter((route) => route.service === service);
  const given = handlers as unknown as Record<string, RouteHandler<ApiRoute>>;
  const ids = new Set(routes.map((route) => route.id));
  const missing = routes.filter((route) => !given[route.id]).map((route) => route.id);
  const extra = Object.keys(given).filter((id) => !ids.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `${service}: handlers do not match the contracts' routes (missing: ${missing.join(', ') || '-'}; ` +
        `extra: ${extra.join(', ') || '-'})`,
    );
  }
  const access = accessChecks(guards);
  const router = Router();
  for (const route of routes) {
    const handler = given[route.id]!;
    if (handler instanceof NotServed) continue;
    const spec: RouteHandlerSpec<ApiRoute> = typeof handler === 'function' ? { handle: handler } : handler;
    if (route.idempotent && !spec.idempotency) throw new Error(`${route.id}: an idempotent route needs its store`);
    router[route.method](toExpressPath(route.path), ...access(route), ...(spec.use ?? []), async (req, res) => {
      const input = {
        params: route.params ? validParams(route.params, req.params, spec.invalidParams) : undefined,
        query: route.query ? validate(route.query, req.query) : undefined,
        body: route.body && !route.multipart ? validate(route.body, req.body ?? {}) : undefined,
        claims: res.locals.claims,
        req,
        res,
      };
      const result: unknown = spec.idempotency
        ? await spec.idempotency.run(idempotentCall(route, req, res), async (action) =>
            spec.handle({ ...input, action } as unknown as RouteInput<ApiRoute>),
          )
        : await spec.handle({ ...input, action: undefined } as RouteInput<ApiRoute>);
      if (result === answered) return;
      if (result instanceof Replayed) {
        res.status(result.status).set('Idempotent-Replayed', 'true');
        if (route.response.schema) res.json(result.answer);
        else res.end();
      } else if (route.response.schema) respond(res, route.response.schema, result, route.response.status);
      else res.status(route.response.status).end();
    });
  }
  return router;
}

/** What the store needs of a request: who sent which key, and the request it names. */
function idempotentCall(route: ApiRoute, req: Request, res: Response) {
  const claims = res.locals.claims;
  return {
    actor: claims?.sub ?? 'anonymous',
    auditActor: {
      id: claims ? Number(claims.sub) : null,
      email: claims?.email ?? null,
      role: 'admin' as const,
      ip: clientAddress(req) || null,
      userAgent: req.get('user-agent') ?? null,
    },
    key: req.get('idempotency-key'),
    request: { route: route.id, params: req.params, body: req.body ?? null },
    status: route.response.status,
    serialize: (answer: unknown) => (route.response.schema ? route.response.schema.parse(answer) : null),
  };
}

function validParams(schema: z.ZodType, value: unknown, invalid: (() => Error) | undefined): unknown {
  if (!invalid) return validate(schema, value);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid();
  return parsed.data;
}

/** The checks of each access rule; the gateway checks the same, a service checks again. */
function accessChecks(guards: RouteGuards): (route: ApiRoute) => RequestHandler[] {
  const user = requireAuth({ secret: guards.jwtSecret, kv: guards.kv });
  const admin = requireAuth({ secret: guards.jwtSecret, kv: guards.kv, role: 'admin' });
  const bot = guards.botApiKey === undefined ? undefined : requireBotKey(guards.botApiKey);
  return (route) => {
    switch (route.access) {
      case 'user':
        return [user];
      case 'admin':
        return [admin];
      case 'bot':
        if (!bot) throw new Error(`${route.id}: a bot route needs the bot's key (RouteGuards.botApiKey)`);
        return [bot];
      case 'public':
      case 'webhook':
        return [];
    }
  };
}
