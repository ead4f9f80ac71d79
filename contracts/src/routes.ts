import { type ServiceName } from './common';
import { type ApiRoute } from './api-route';
import { auditRoutes } from './audit.routes';
import { authRoutes } from './auth.routes';
import { billingRoutes } from './billing.routes';
import { botRoutes } from './bot.routes';
import { broadcastRoutes } from './broadcasts.routes';
import { chatRoutes } from './chat.routes';
import { chatHistoryRoutes } from './chat-history.routes';
import { contentRoutes } from './content.routes';
import { growthRoutes } from './growth.routes';
import { metricsRoutes } from './metrics.routes';
import { reconciliationRoutes } from './reconciliation.routes';
import { subscriptionRoutes } from './subscriptions.routes';

/**
 * The route registry: every `/api` route of the product with its owning service, access rule and
 * schemas, declared per service beside its schemas (`auth.routes.ts` next to `auth.ts`, …). The services
 * serve it, the gateway routes by it, the bot and the web app call it with `apiPath`, and
 * `openapi.ts` generates the OpenAPI document from it; it imports no OpenAPI generator, so the web app's
 * bundle does not carry one (docs/architecture.md, Contracts).
 */

export type { ApiRoute, ErrorStatus, HttpMethod, RouteAccess } from './api-route';

const declaredRoutes = [
  ...authRoutes,
  ...contentRoutes,
  ...billingRoutes,
  ...growthRoutes,
  ...chatHistoryRoutes,
  ...metricsRoutes,
  ...reconciliationRoutes,
  ...subscriptionRoutes,
  ...auditRoutes,
  ...botRoutes,
  ...broadcastRoutes,
  ...chatRoutes,
] as const;

/** A path's segments, each literal (0) or a `{parameter}` (1). */
const segmentKinds = (path: string): number[] => path.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));

/**
 * Paths by specificity: at the first segment where two paths differ in kind the literal one comes first
 * (`/api/admin/users/export` before `/api/admin/users/{id}`), so an express router that tries routes in
 * this order never lets a parameter swallow a literal; otherwise the declared order stays.
 */
export function bySpecificity<R extends Pick<ApiRoute, 'path'>>(routes: readonly R[]): R[] {
  return [...routes].sort((a, b) => {
    const left = segmentKinds(a.path);
    const right = segmentKinds(b.path);
    for (let index = 0; index < Math.min(left.length, right.length); index++) {
      if (left[index] !== right[index]) return left[index]! - right[index]!;
    }
    return left.length - right.length;
  });
}

/**
 * Every `/api` route, in the order of `bySpecificity`. The literal types are kept: a service's handlers,
 * their input and answer types follow from this list.
 */
export const apiRoutes: readonly (typeof declaredRoutes)[number][] = bySpecificity(declaredRoutes);

export type ApiRouteId = (typeof apiRoutes)[number]['id'];
export type ApiRouteOf<Id extends ApiRouteId> = Extract<(typeof apiRoutes)[number], { id: Id }>;
/** The routes a service answers. */
export type ServiceRoute<S extends ServiceName> = Extract<(typeof apiRoutes)[number], { service: S }>;

/** The names of a path's `{parameters}`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;
type PathArgs<Id extends ApiRouteId> = [PathParamNames<ApiRouteOf<Id>['path']>] extends [never]
  ? []
  : [params: Record<PathParamNames<ApiRouteOf<Id>['path']>, string | number>];

const routesById = new Map<string, ApiRoute>(apiRoutes.map((route) => [route.id, route]));

/** The route of that name. */
export function apiRoute<Id extends ApiRouteId>(id: Id): ApiRouteOf<Id> {
  return routesById.get(id) as ApiRouteOf<Id>;
}

/** The address of a route with its parameters filled in (`apiPath('getBotHoldsById', { id })`), for callers of the API. */
export function apiPath<Id extends ApiRouteId>(id: Id, ...[params]: PathArgs<Id>): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return apiRoute(id).path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(values[name])),
  );
}

/** `/api/admin/users/{id}` → `/api/admin/users/:id`. */
export function toExpressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
