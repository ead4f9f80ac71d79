/**
 * Typecheck fixture, part of `npm run typecheck` (never run by jest): a service's handlers are typed by
 * the contracts' routes. Each `@ts-expect-error` is a handler map or a handler the compiler must refuse.
 */
import { type AccessClaims, answered, contractRouter, type KeyValue, notServed, routeHandlers } from '../src';

const guards = { jwtSecret: 'secret', kv: {} as KeyValue };

// @ts-expect-error a route of the service without its handler
export const missing = contractRouter('metrics', guards, { getAdminStats: notServed });

export const extra = contractRouter('metrics', guards, {
  getAdminStats: notServed,
  getAdminStatsSeries: notServed,
  // @ts-expect-error a handler for a route of another service
  getTariffs: notServed,
});

// @ts-expect-error a part of the handlers names only routes of its service
export const otherService = routeHandlers('metrics', { postAuthLogin: notServed });

export const typedInput = routeHandlers('billing', {
  putAdminTariffsById: ({ params, body, claims }) => {
    const id: number = params.id;
    const name: string = body.name;
    const admin: AccessClaims = claims;
    return { success: true, tariff: { id, name, admin } as never };
  },
  // @ts-expect-error a public route has no token
  getTariffs: ({ claims }) => (claims.sub, answered),
});

export const typedResult = routeHandlers('auth', {
  // @ts-expect-error the result is the route's response schema
  postBotLinkTokens: () => ({ token: 1 }),
  // @ts-expect-error a JSON route returns its body, or `answered` once it wrote `res` itself
  deleteAdminUsersById: () => undefined,
});

export const streamed = routeHandlers('chat-history', {
  // @ts-expect-error a route of another content type (the CSV export) writes `res` itself
  getAdminHistoryExport: () => ({ history: [] }),
});
