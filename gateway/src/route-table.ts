import { ServiceName } from '@gpt/contracts';
import { apiRoutes, type ApiRoute, type RouteAccess } from '@gpt/contracts/openapi';

/** The services behind the gateway (contracts' `ServiceName`). */
export const SERVICES = ServiceName.options;
export type { ServiceName };

/**
 * Who may pass: anyone; any valid JWT; a JWT whose role is admin; the Telegram bot with its key.
 * The services check again; this is the first line, not the only one.
 */
export type Access = 'public' | 'user' | 'admin' | 'bot';

/** The gateway's check for each access of the contracts; a new kind there fails the typecheck here. */
const GATEWAY_ACCESS: Record<RouteAccess, Access> = {
  public: 'public',
  user: 'user',
  admin: 'admin',
  bot: 'bot',
  // Anyone may knock; the service believes the call only after the provider's own check.
  webhook: 'public',
};

export interface RouteRule {
  /** `/api/x*` covers `/api/x` and everything under `/api/x/`; without `*` only the path itself. */
  path: string;
  service: ServiceName;
  access: Access;
}

/**
 * One rule per resource of the contracts' routes: the path up to its first parameter, with
 * everything under it (`/api/admin/users/{id}` → `/api/admin/users*`). Routes sharing a resource
 * must agree on its service and access; the gateway refuses to start otherwise.
 */
export function routeRulesOf(routes: readonly Pick<ApiRoute, 'path' | 'service' | 'access'>[]): RouteRule[] {
  const rules = new Map<string, RouteRule>();
  for (const route of routes) {
    const resource = route.path.split('/{')[0] as string;
    const rule: RouteRule = { path: `${resource}*`, service: route.service, access: GATEWAY_ACCESS[route.access] };
    const known = rules.get(rule.path);
    if (known && (known.service !== rule.service || known.access !== rule.access)) {
      throw new Error(
        `${route.path} (${rule.service}, ${rule.access}) and another route of ${resource} (${known.service}, ${known.access}) disagree: give them one service and access, or different paths`,
      );
    }
    rules.set(rule.path, rule);
  }
  return [...rules.values()];
}

/** The route → service table with the access each path needs, derived from the contracts' routes. The longest matching rule wins. */
export const ROUTE_TABLE: readonly RouteRule[] = routeRulesOf(apiRoutes);

export interface CompiledRoute {
  readonly rule: RouteRule;
  readonly service: ServiceName;
  readonly access: Access;
}

/**
 * Precomputes the table into two maps so a lookup costs a handful of Map.get calls
 * (one per path segment), whatever the table's size.
 */
export function compileRouteTable(rules: readonly RouteRule[]): (normalizedPath: string) => CompiledRoute | undefined {
  const exact = new Map<string, CompiledRoute>();
  const subtree = new Map<string, CompiledRoute>();
  for (const rule of rules) {
    assertAccessFitsPath(rule);
    const route: CompiledRoute = { rule, service: rule.service, access: rule.access };
    if (rule.path.endsWith('/*')) subtree.set(rule.path.slice(0, -2), route);
    else if (rule.path.endsWith('*')) {
      const base = rule.path.slice(0, -1);
      exact.set(base, route);
      subtree.set(base, route);
    } else exact.set(rule.path, route);
  }

  return (normalizedPath) => {
    let path = normalizedPath;
    const hit = exact.get(path);
    if (hit) return hit;
    // Walk up one segment at a time: /api/admin/users/5 → /api/admin/users → /api/admin → /api.
    let end = path.lastIndexOf('/');
    while (end > 0) {
      path = path.slice(0, end);
      const found = subtree.get(path);
      if (found) return found;
      end = path.lastIndexOf('/');
    }
    return undefined;
  };
}

/**
 * Services route case-insensitively and ignore one trailing slash; match the same way so
 * `/api/Auth/Profile/` cannot slip past the check that `/api/auth/profile` gets.
 */
export function normalizeApiPath(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.charCodeAt(lower.length - 1) === 47 /* / */ ? lower.slice(0, -1) : lower;
}

/** The table must not be able to open an admin or bot path by a typo. */
function assertAccessFitsPath(rule: RouteRule): void {
  if (rule.path.startsWith('/api/admin/') && rule.access !== 'admin') {
    throw new Error(`route ${rule.path} is under /api/admin/ and must require the admin role`);
  }
  if (rule.path.startsWith('/api/bot/') && rule.access !== 'bot') {
    throw new Error(`route ${rule.path} is under /api/bot/ and must require the bot key`);
  }
  if (!rule.path.startsWith('/api/') || rule.path.startsWith('/api/internal')) {
    throw new Error(`route ${rule.path} must be a public /api path`);
  }
}
